import { readdirSync, readFileSync } from 'fs';
import { join, relative } from 'path';
import { parse } from 'yaml';
import { HealthAssessment, KubernetesObject } from '../../types';
import { computeHealth } from '../computeHealth';

/**
 * One of Argo CD's own health test cases, transcribed into a
 * `*.cases.yaml` file next to the rule that answers it.
 */
export interface ArgocdCase {
  /** The Argo CD directory the case comes from, e.g. resource_customizations/apps/Deployment. */
  source: string;
  /** The cases file, relative to src/health. */
  file: string;
  /** The testdata file, relative to `source` (or to the repository root). */
  input: string;
  status: string;
  message: string;
  /** Why the engine's message differs from Argo CD's on this case, where it does. */
  messageDiffers?: string;
  /** Why the engine's status differs from Argo CD's stored test, where it does (counted as a disagreement). */
  statusDiffers?: string;
  /** `reference` when the expectation is read from Argo CD's code, not a test file. */
  expected?: string;
  object: KubernetesObject;
}

export interface ArgocdCaseResult {
  case: ArgocdCase;
  actual: HealthAssessment | undefined;
  statusAgrees: boolean;
  messageAgrees: boolean;
}

const HEALTH_DIR = join(__dirname, '..');

function caseFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap(entry => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return caseFiles(path);
      return entry.name.endsWith('.cases.yaml') ? [path] : [];
    });
}

/** Every transcribed case under src/health, file by file. */
export function loadArgocdCases(dir = HEALTH_DIR): ArgocdCase[] {
  return caseFiles(dir).flatMap(path => {
    const doc = parse(readFileSync(path, 'utf8'));
    const file = relative(HEALTH_DIR, path);
    return (doc.cases as Omit<ArgocdCase, 'source' | 'file'>[]).map(c => ({
      ...c,
      message: c.message ?? '',
      source: doc.source as string,
      file,
    }));
  });
}

export function runArgocdCase(c: ArgocdCase): ArgocdCaseResult {
  const actual = computeHealth(c.object);
  return {
    case: c,
    actual,
    statusAgrees: actual?.status === c.status,
    messageAgrees: (actual?.message ?? '') === c.message,
  };
}

export interface AgreementRow {
  source: string;
  cases: number;
  statusAgrees: number;
  messageAgrees: number;
}

/** Agreement per Argo CD directory, in file order, plus a total row. */
export function agreementBySource(results: ArgocdCaseResult[]): AgreementRow[] {
  const rows = new Map<string, AgreementRow>();
  const total: AgreementRow = {
    source: 'total',
    cases: 0,
    statusAgrees: 0,
    messageAgrees: 0,
  };
  for (const result of results) {
    const key = result.case.source;
    let row = rows.get(key);
    if (!row) {
      row = { source: key, cases: 0, statusAgrees: 0, messageAgrees: 0 };
      rows.set(key, row);
    }
    for (const r of [row, total]) {
      r.cases += 1;
      if (result.statusAgrees) r.statusAgrees += 1;
      if (result.messageAgrees) r.messageAgrees += 1;
    }
  }
  return [...rows.values(), total];
}
