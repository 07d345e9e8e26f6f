import { loadArgocdCases, runArgocdCase } from './testing/argocdCases';

// gitops-engine's way: a table test over every rule's reference cases (the
// `*.cases.yaml` next to each rule, transcribed from Argo CD's own tests).
const byFile = new Map<string, ReturnType<typeof loadArgocdCases>>();
for (const c of loadArgocdCases()) {
  byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
}

describe.each([...byFile.entries()])(
  "Argo CD's cases in %s",
  (_file, cases) => {
    it.each(cases.map(c => [c.input, c] as const))('%s', (_input, c) => {
      const { actual } = runArgocdCase(c);
      if (c.statusDiffers) {
        // Argo CD's stored test and its script disagree: the file says which
        // the rule follows, and the bench counts the case as a disagreement.
        expect(actual?.status).not.toBe(c.status);
        return;
      }
      expect({
        status: actual?.status,
        // Where the file says why the message differs, only the status counts.
        message: c.messageDiffers ? c.message : actual?.message ?? '',
      }).toEqual({ status: c.status, message: c.message });
    });
  },
);
