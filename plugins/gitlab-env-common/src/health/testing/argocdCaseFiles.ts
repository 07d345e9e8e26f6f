import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
// A test-only module (rule tests and the health benchmark import it): yaml
// is a dev dependency.
// eslint-disable-next-line @backstage/no-undeclared-imports
import { parse } from 'yaml';
import { computeHealth } from '../computeHealth';
import { HealthAssessment, KubernetesObject } from '../../types';

// Test-only: ArgoCD's own health test cases, as transcribed into
// bench/argocd-cases (read as data: the benchmark folder is not imported).

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

const CASES_DIR = join(__dirname, '../../../bench/argocd-cases');

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
