import { execFileSync } from 'node:child_process';
import { shellWord } from './shellWord';

describe('shellWord', () => {
  it('leaves a Kubernetes name as it is', () => {
    expect(shellWord('web-7d4b9c-x2x')).toBe('web-7d4b9c-x2x');
    expect(shellWord('kustomization.kustomize.toolkit.fluxcd.io/app')).toBe(
      'kustomization.kustomize.toolkit.fluxcd.io/app',
    );
  });

  it('keeps a name with spaces, quotes or shell syntax one literal word', () => {
    expect(shellWord("it's $(rm -rf /)")).toBe(`'it'\\''s $(rm -rf /)'`);
    expect(shellWord('a b')).toBe(`'a b'`);
    expect(shellWord('')).toBe(`''`);
  });

  it('is read back by a POSIX shell as the same single word', () => {
    for (const word of ["it's", 'a b', '$(id)', '`id`', 'x;y', '"q"', '']) {
      const echoed = execFileSync(
        'sh',
        ['-c', `printf %s ${shellWord(word)}`],
        {
          encoding: 'utf8',
        },
      );
      expect(echoed).toBe(word);
    }
  });
});
