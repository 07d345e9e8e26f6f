import {
  ArgocdCaseResult,
  loadArgocdCases,
  runArgocdCase,
} from '../src/health/testing/argocdCaseFiles';

export { loadArgocdCases, runArgocdCase };

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
