import {
  ArgocdCase,
  loadArgocdCases,
  runArgocdCase,
} from '../../../bench/argocdCases';

let cases: ArgocdCase[] | undefined;

/**
 * Test-only: a describe block asserting ArgoCD's status (and message, where
 * ArgoCD's test and our reading of its script agree) for every transcribed
 * case of one ArgoCD directory (bench/argocd-cases).
 */
export function describeArgocdCases(
  source: string,
  knownMessageDifferences: string[] = [],
): void {
  cases ??= loadArgocdCases();
  const mine = cases.filter(c => c.source === `resource_customizations/${source}`);
  describe(`ArgoCD's own test cases for ${source}`, () => {
    it('has cases', () => expect(mine.length).toBeGreaterThan(0));
    it.each(mine.map(c => [c.input, c] as const))('%s', (_input, c) => {
      const result = runArgocdCase(c);
      expect(result.actual?.status).toBe(c.status);
      if (!knownMessageDifferences.includes(c.input))
        expect(result.actual?.message ?? '').toBe(c.message);
    });
  });
}
