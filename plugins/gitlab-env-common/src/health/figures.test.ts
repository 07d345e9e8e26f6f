import {
  agreementBySource,
  loadArgocdCases,
  runArgocdCase,
} from './__testUtils__/argocdCases';
import { loadCrCorpus, runCorpusEntry } from '../../bench/crCorpus';

// The goals of issue 17, kept as regressions guards; `npm run bench:health`
// prints the per-kind table.
describe('health figures', () => {
  it("gives ArgoCD's status on at least 98% of ArgoCD's own test cases", () => {
    const rows = agreementBySource(loadArgocdCases().map(runArgocdCase));
    const total = rows[rows.length - 1];
    expect(total.cases).toBeGreaterThanOrEqual(113);
    expect(total.statusAgrees / total.cases).toBeGreaterThanOrEqual(0.98);
  });

  it('gives a status to at least 90% of custom resources with standard conditions, and never a wrong Healthy', () => {
    const results = loadCrCorpus().map(entry => runCorpusEntry(entry));
    const standard = results.filter(r => r.entry.standard);
    const assessed = standard.filter(r => r.assessed);
    expect(assessed.length / standard.length).toBeGreaterThanOrEqual(0.9);
    const wronglyHealthy = results.filter(
      r => r.actual?.status === 'Healthy' && r.entry.expected !== 'Healthy',
    );
    expect(wronglyHealthy.map(r => r.entry.shape)).toEqual([]);
    // Where the generic rule answers, it answers what the object says.
    expect(
      results
        .filter(r => r.assessed && !r.ownRule && !r.agrees)
        .map(r => `${r.entry.shape}: ${r.actual?.status}`),
    ).toEqual([]);
  });
});
