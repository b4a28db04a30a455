/** CPython 3.11's tokenizer (Parser/tokenizer.c), the part τ-bench's `calculate` characters reach. */
// ---------------------------------------------------------------------------------------
// Tokenizer (Parser/tokenizer.c, the part these characters reach)

// Python parity: MAXLEVEL in Parser/tokenizer.h.
const MAX_PAREN_LEVEL = 200;

export type TokenType = 'NUMBER' | 'OP' | 'ENDMARKER' | 'EOF_IN_PAREN';
export interface Token {
  readonly type: TokenType;
  readonly text: string;
  /** Parenthesis depth after the token, as CPython stores it in each token. */
  readonly level: number;
}
export interface Tokens {
  readonly tokens: readonly Token[];
  /** The tokenizer's error, raised when the parser asks for token `tokens.length`. */
  readonly error: string | null;
}

const LEADING_ZEROS = 'leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers';

export function tokenize(src: string): Tokens {
  const tokens: Token[] = [];
  let level = 0;
  let i = 0;
  const digit = (k: number): boolean => {
    const c = src.charCodeAt(k);
    return c >= 48 && c <= 57;
  };
  const digits = (): void => {
    while (digit(i)) i++;
  };
  for (;;) {
    while (src[i] === ' ') i++;
    if (i >= src.length) {
      tokens.push({ type: level > 0 ? 'EOF_IN_PAREN' : 'ENDMARKER', text: '', level });
      return { tokens, error: null };
    }
    const start = i;
    const c = src[i]!;
    if (c === '.' && !digit(i + 1)) {
      const ellipsis = src.startsWith('...', i);
      i += ellipsis ? 3 : 1;
      tokens.push({ type: 'OP', text: ellipsis ? '...' : '.', level });
    } else if (c === '.' || digit(i)) {
      if (c === '.') {
        i++;
        digits();
      } else if (c === '0') {
        while (src[i] === '0') i++;
        const nonzero = digit(i);
        digits();
        if (src[i] === '.') {
          i++;
          digits();
        } else if (nonzero) return { tokens, error: LEADING_ZEROS };
      } else {
        digits();
        if (src[i] === '.') {
          i++;
          digits();
        }
      }
      tokens.push({ type: 'NUMBER', text: src.slice(start, i), level });
    } else if (c === '(') {
      if (level >= MAX_PAREN_LEVEL) return { tokens, error: 'too many nested parentheses' };
      level++;
      i++;
      tokens.push({ type: 'OP', text: '(', level });
    } else if (c === ')') {
      if (level === 0) return { tokens, error: "unmatched ')'" };
      level--;
      i++;
      tokens.push({ type: 'OP', text: ')', level });
    } else if (c === '*' || c === '/') {
      const double = src[i + 1] === c;
      i += double ? 2 : 1;
      tokens.push({ type: 'OP', text: double ? c + c : c, level });
    } else if (c === '+' || c === '-') {
      i++;
      tokens.push({ type: 'OP', text: c, level });
    } else {
      throw new Error(`expression evaluator: unsupported character U+${c.charCodeAt(0).toString(16)}`);
    }
  }
}
