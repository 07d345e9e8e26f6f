/**
 * GitLab evaluates `=~` patterns with RE2 (Gitlab::UntrustedRegexp), whose
 * syntax differs from JavaScript's: no look-around or back-references,
 * `\A`/`\z`, `(?P<name>)`, `[[:alpha:]]`, `\Q…\E`, the `U` (ungreedy) flag,
 * escapes for any punctuation. This module translates an RE2 pattern into
 * an equivalent JavaScript RegExp, and refuses what RE2 refuses
 * (https://github.com/google/re2/wiki/Syntax) instead of accepting more.
 *
 * Known gap: flag groups after the start of the pattern (`a(?i)b`) need
 * RegExp modifiers, which not every JavaScript engine has; they are
 * reported as unsupported rather than evaluated differently.
 */

export type Re2Compiled = { regexp: RegExp } | { error: string };

const MAX_REPEAT = 1000; // RE2's kMaxRepeat

const POSIX_CLASSES: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7f',
  blank: '\\t ',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

const PERL_CLASSES: Record<string, { outside: string; inside?: string }> = {
  d: { outside: '\\d', inside: '\\d' },
  D: { outside: '\\D', inside: '\\D' },
  w: { outside: '[0-9A-Za-z_]', inside: '0-9A-Za-z_' },
  W: { outside: '[^0-9A-Za-z_]', inside: '\\W' },
  // RE2's \s is [\t\n\f\r ], without \v or Unicode spaces.
  s: { outside: '[\\t\\n\\f\\r ]', inside: '\\t\\n\\f\\r ' },
  S: { outside: '[^\\t\\n\\f\\r ]' },
};

class Re2SyntaxError extends Error {}

function hexEscape(codePoint: number): string {
  return `\\u{${codePoint.toString(16)}}`;
}

function isWordChar(c: string) {
  return /^[0-9A-Za-z_]$/.test(c);
}

/** Translates one RE2 pattern; throws Re2SyntaxError on what RE2 rejects. */
class Translator {
  private at = 0;
  private out = '';
  private depth = 0;
  private canRepeat = false;

  constructor(
    private readonly source: string,
    private readonly ungreedy: boolean,
  ) {}

  run(): string {
    const s = this.source;
    while (this.at < s.length) {
      const c = s[this.at];
      if (c === '\\') {
        this.atom(this.escape(false));
      } else if (c === '[') {
        this.atom(this.charClass());
      } else if (c === '(') {
        this.group();
      } else if (c === ')') {
        if (this.depth === 0) throw new Re2SyntaxError('unexpected )');
        this.depth--;
        this.at++;
        this.atom(')');
      } else if (c === '*' || c === '+' || c === '?') {
        this.at++;
        this.repeat(c);
      } else if (c === '{' && this.repeatCount()) {
        // handled by repeatCount
      } else if (c === '|') {
        this.at++;
        this.out += '|';
        this.canRepeat = false;
      } else if (c === '^' || c === '$') {
        // Wrapped so that a repetition of an anchor (legal in RE2) stays legal.
        this.at++;
        this.atom(`(?:${c})`);
      } else if (c === '.') {
        this.at++;
        this.atom('.');
      } else {
        const cp = s.codePointAt(this.at)!;
        this.at += cp > 0xffff ? 2 : 1;
        this.atom(
          /[\\^$.*+?()[\]{}|/-]/.test(c)
            ? hexEscape(cp)
            : String.fromCodePoint(cp),
        );
      }
    }
    if (this.depth > 0) throw new Re2SyntaxError('missing )');
    return this.out;
  }

  private atom(text: string) {
    this.out += text;
    this.canRepeat = true;
  }

  private repeat(operator: string) {
    if (!this.canRepeat) {
      throw new Re2SyntaxError(
        `missing argument to repetition operator: ${operator}`,
      );
    }
    let lazy = false;
    if (this.source[this.at] === '?') {
      lazy = true;
      this.at++;
    }
    const next = this.source[this.at];
    if (next === '*' || next === '+' || next === '?') {
      throw new Re2SyntaxError(`bad repetition operator: ${operator}${next}`);
    }
    this.out += operator + (lazy !== this.ungreedy ? '?' : '');
    this.canRepeat = false;
  }

  /** `{n}`, `{n,}`, `{n,m}`; anything else is a literal `{` in RE2. */
  private repeatCount(): boolean {
    const m = /\{(\d+)(?:(,)(\d*))?\}/y;
    m.lastIndex = this.at;
    const match = m.exec(this.source);
    if (!match) {
      this.at++;
      this.atom('\\{');
      return true;
    }
    const min = Number(match[1]);
    // `{n}` is exactly n; `{n,}` has no upper bound (-1).
    let max = min;
    if (match[2]) max = match[3] === '' ? -1 : Number(match[3]);
    if (min > MAX_REPEAT || max > MAX_REPEAT || (max >= 0 && max < min)) {
      throw new Re2SyntaxError(`bad repetition operator: ${match[0]}`);
    }
    this.at += match[0].length;
    this.repeat(match[0]);
    return true;
  }

  private group() {
    const rest = this.source.slice(this.at);
    const named = /^\(\?P?<(\w+)>/.exec(rest);
    let open: string;
    if (named) {
      open = `(?<${named[1]}>`;
      this.at += named[0].length;
    } else if (rest.startsWith('(?:')) {
      open = '(?:';
      this.at += 3;
    } else if (/^\(\?(?:[=!]|<[=!]|P=)/.test(rest)) {
      throw new Re2SyntaxError(
        'look-around and back-references are not supported by RE2',
      );
    } else if (rest.startsWith('(?')) {
      throw new Re2SyntaxError(
        'flag groups are only supported at the start of the pattern',
      );
    } else {
      open = '(';
      this.at += 1;
    }
    this.depth++;
    this.out += open;
    this.canRepeat = false;
  }

  /** Reads an escape at `\`; returns its JavaScript form. */
  private escape(inClass: boolean): string {
    const s = this.source;
    const c = s[this.at + 1];
    if (c === undefined) throw new Re2SyntaxError('trailing \\');
    this.at += 2;
    const perl = PERL_CLASSES[c];
    if (perl) {
      if (!inClass) return perl.outside;
      if (perl.inside) return perl.inside;
      throw new Re2SyntaxError(`\\${c} inside a class is not supported here`);
    }
    const simple: Record<string, string> = {
      a: '\\x07',
      f: '\\f',
      t: '\\t',
      n: '\\n',
      r: '\\r',
      v: '\\v',
    };
    if (simple[c]) return simple[c];
    if (!inClass) {
      if (c === 'b' || c === 'B') return `\\${c}`;
      if (c === 'A') return '(?<![\\s\\S])';
      if (c === 'z') return '(?![\\s\\S])';
      if (c === 'Q') {
        const end = s.indexOf('\\E', this.at);
        const literal = s.slice(this.at, end < 0 ? s.length : end);
        this.at = end < 0 ? s.length : end + 2;
        if (literal === '') return '(?:)';
        return `(?:${Array.from(literal)
          .map(ch => hexEscape(ch.codePointAt(0)!))
          .join('')})`;
      }
    }
    if (c === 'x') {
      const m = /\{([0-9A-Fa-f]{1,8})\}|([0-9A-Fa-f]{2})/y;
      m.lastIndex = this.at;
      const hex = m.exec(s);
      if (!hex) throw new Re2SyntaxError('invalid escape sequence: \\x');
      this.at += hex[0].length;
      const cp = parseInt(hex[1] ?? hex[2], 16);
      if (cp > 0x10ffff) throw new Re2SyntaxError('invalid escape sequence');
      return hexEscape(cp);
    }
    if (c >= '0' && c <= '7') {
      // A lone non-zero digit is a back-reference, which RE2 rejects; \0
      // and two- or three-digit forms are octal.
      const m = /[0-7]{0,2}/y;
      m.lastIndex = this.at;
      const more = m.exec(s)![0];
      if (c !== '0' && more === '') {
        throw new Re2SyntaxError(`invalid escape sequence: \\${c}`);
      }
      this.at += more.length;
      return hexEscape(parseInt(c + more, 8));
    }
    if (c === 'p' || c === 'P') return this.unicodeClass(c === 'P');
    if (c.charCodeAt(0) < 0x80 && !isWordChar(c)) {
      return hexEscape(c.charCodeAt(0));
    }
    throw new Re2SyntaxError(`invalid escape sequence: \\${c}`);
  }

  private unicodeClass(negated: boolean): string {
    const m = /\{(\^?)(\w+)\}|([A-Za-z])/y;
    m.lastIndex = this.at;
    const match = m.exec(this.source);
    if (!match) throw new Re2SyntaxError('invalid character class range');
    this.at += match[0].length;
    const name = match[2] ?? match[3];
    const negate = negated !== (match[1] === '^');
    if (name === 'Any') return negate ? '[^\\s\\S]' : '[\\s\\S]';
    // One- or two-letter names are general categories, the rest scripts.
    const property = /^[A-Z][a-z]?$/.test(name) ? name : `Script=${name}`;
    return `\\${negate ? 'P' : 'p'}{${property}}`;
  }

  private charClass(): string {
    const s = this.source;
    this.at++;
    let out = '[';
    if (s[this.at] === '^') {
      out += '^';
      this.at++;
    }
    let first = true;
    for (;;) {
      if (this.at >= s.length) {
        throw new Re2SyntaxError('missing closing ]');
      }
      const c = s[this.at];
      if (c === ']' && !first) {
        this.at++;
        return `${out}]`;
      }
      first = false;
      if (c === '[' && s[this.at + 1] === ':') {
        const posix = /\[:(\^?)([a-z]+):\]/y;
        posix.lastIndex = this.at;
        const m = posix.exec(s);
        if (m) {
          const ranges = POSIX_CLASSES[m[2]];
          if (!ranges || m[1]) {
            throw new Re2SyntaxError(
              `invalid or unsupported character class: ${m[0]}`,
            );
          }
          out += ranges;
          this.at += m[0].length;
          continue;
        }
      }
      if (c === '\\') {
        out += this.escape(true);
      } else if (c === '-') {
        out += '-';
        this.at++;
      } else {
        const cp = s.codePointAt(this.at)!;
        this.at += cp > 0xffff ? 2 : 1;
        out += /[\\\]\[^{}()|/.*+?$]/.test(c)
          ? hexEscape(cp)
          : String.fromCodePoint(cp);
      }
    }
  }
}

/**
 * Compiles a pattern given as the inside of `/…/` plus GitLab's flags
 * (`i`, `m`, `s`, `U`), the way Gitlab::UntrustedRegexp::RubySyntax does:
 * flags become a leading `(?flags)` group. Never throws.
 */
export function compileRe2(pattern: string, flags = ''): Re2Compiled {
  try {
    let source = pattern;
    const active = new Set(flags.split('').filter(f => 'imsU'.includes(f)));
    // Leading flag groups, including the one GitLab prepends.
    for (;;) {
      const m = /^\(\?([imsU]*)(?:-([imsU]*))?\)/.exec(source);
      if (!m || (m[1] === '' && m[2] === undefined)) break;
      for (const f of m[1]) active.add(f);
      for (const f of m[2] ?? '') active.delete(f);
      source = source.slice(m[0].length);
    }
    const translated = new Translator(source, active.has('U')).run();
    const jsFlags = `${['i', 'm', 's'].filter(f => active.has(f)).join('')}u`;
    return { regexp: new RegExp(translated, jsFlags) };
  } catch (error) {
    const message =
      error instanceof Re2SyntaxError
        ? error.message
        : String((error as Error)?.message ?? error).replace(
            /^Invalid regular expression: /,
            '',
          );
    return { error: `invalid regular expression: ${message}` };
  }
}
