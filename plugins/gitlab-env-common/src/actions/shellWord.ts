/**
 * Quotes a word for a POSIX shell when it holds anything unusual, so a
 * command shown to copy runs on the word it names. Names from the cluster
 * are untrusted: one with a quote or a space stays a single word.
 *
 * @public
 */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_.:/=@%+,-]+$/.test(word)
    ? word
    : `'${word.replace(/'/g, `'\\''`)}'`;
}
