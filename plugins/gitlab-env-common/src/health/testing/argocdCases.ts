import { ArgocdCase, loadArgocdCases, runArgocdCase } from './argocdCaseFiles';

let cases: ArgocdCase[] | undefined;

// A shared describe block, imported by each rule's test file: the rule's
// cases stay next to its other tests.
/**
 * Test-only: a describe block asserting ArgoCD's status (and message, where
 * ArgoCD's test and our reading of its script agree) for every transcribed
 * case of one ArgoCD directory (bench/argocd-cases).
 */
// eslint-disable-next-line jest/no-export
export function describeArgocdCases(
  source: string,
  knownMessageDifferences: string[] = [],
): void {
  cases ??= loadArgocdCases();
  const mine = cases.filter(
    c => c.source === `resource_customizations/${source}`,
  );
  describe(`ArgoCD's own test cases for ${source}`, () => {
    it('has cases', () => expect(mine.length).toBeGreaterThan(0));
    it.each(mine.map(c => [c.input, c] as const))('%s', (_input, c) => {
      const { actual } = runArgocdCase(c);
      const messageKnownToDiffer = knownMessageDifferences.includes(c.input);
      expect({
        status: actual?.status,
        message: messageKnownToDiffer ? c.message : actual?.message ?? '',
      }).toEqual({ status: c.status, message: c.message });
    });
  });
}
