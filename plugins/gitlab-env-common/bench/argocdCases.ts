import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';
import { computeHealth } from '../src/health';
import { HealthAssessment, KubernetesObject } from '../src/types';

/** One of ArgoCD's own health test cases, transcribed into argocd-cases/. */
export interface ArgocdCase {
  /** The ArgoCD directory the case comes from, e.g. resource_customizations/apps/Deployment. */
  source: string;
  /** The testdata file, relative to `source` (or to the repository root). */
  input: string;
  status: string;
  message: string;
  /** `reference` when the expectation is read from ArgoCD's code, not a test file. */
  expected?: string;
  object: KubernetesObject;
}

export interface ArgocdCaseResult {
  case: ArgocdCase;
  actual: HealthAssessment | undefined;
  statusAgrees: boolean;
  messageAgrees: boolean;
}

const CASES_DIR = join(__dirname, 'argocd-cases');

export function loadArgocdCases(dir = CASES_DIR): ArgocdCase[] {
  return readdirSync(dir)
    .filter(file => file.endsWith('.yaml'))
    .sort()
    .flatMap(file => {
      const doc = parse(readFileSync(join(dir, file), 'utf8'));
      return (doc.cases as Omit<ArgocdCase, 'source'>[]).map(c => ({
        ...c,
        message: c.message ?? '',
        source: doc.source as string,
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

/** Agreement per ArgoCD directory, in file order, plus a total row. */
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
