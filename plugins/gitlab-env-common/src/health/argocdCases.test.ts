import { loadArgocdCases, runArgocdCase } from './__testUtils__/argocdCases';

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
      // Where the file says why the message differs, only the status counts;
      // where Argo CD's stored test and its script disagree, the file says
      // which the rule follows and the bench counts a disagreement.
      expect({
        status: c.statusDiffers ? actual?.status !== c.status : actual?.status,
        message:
          c.messageDiffers || c.statusDiffers
            ? c.message
            : actual?.message ?? '',
      }).toEqual({
        status: c.statusDiffers ? true : c.status,
        message: c.message,
      });
    });
  },
);
