/**
 * What a YAML parse error says without its location and source excerpt:
 * the `yaml` library's message is "<reason> at line L, column C:" followed
 * by the lines around it, so its first line alone ends in "column C:" with
 * nothing after. Callers name the place themselves (file and line, or a
 * caret under the text).
 *
 * @public
 */
export function yamlErrorReason(error: { message: string }): string {
  const first = error.message.split('\n')[0];
  return first.replace(/ at line \d+, column \d+:?\s*$/, '').trim();
}
