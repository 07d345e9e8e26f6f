import { parseDocument } from 'yaml';
import { yamlErrorReason } from './yamlError';

describe('yamlErrorReason', () => {
  it.each([
    ['a: 1\na: 2\n', 'Map keys must be unique'],
    ['id: x\n\tbad: 1\n', 'Tabs are not allowed as indentation'],
    [
      'rules:\n  - if: a\n  b: 1\nfoo\n',
      'All mapping items must start at the same column',
    ],
  ])(
    'gives the whole reason of %j, without the dangling location',
    (text, reason) => {
      const error = parseDocument(text, { uniqueKeys: true }).errors[0];
      expect(error.message).toMatch(/column \d+:\n/);
      expect(yamlErrorReason(error)).toBe(reason);
    },
  );

  it('keeps a message that names no location as it is', () => {
    expect(yamlErrorReason(new Error('Unexpected end'))).toBe('Unexpected end');
  });
});
