/**
 * What pydantic's JSON parser (jiter, behind τ²'s `Results.model_validate_json` for a one-file results file)
 * refuses in a text Python's `json.loads` reads: a value nested more than 200 containers deep, and a `\u`
 * escape of a lone surrogate. τ² then loads none of the file; a run folder (read with `json.loads`) is not
 * affected. Said as pydantic says it, with the place in the file as a field path.
 */
import { reprStr } from '../../../py/repr';

/** jiter's default recursion limit: a value inside more containers than this is refused. */
// Python parity: jiter DEFAULT_RECURSION_LIMIT (pydantic-core 2.x).
export const JITER_RECURSION_LIMIT = 200;

const utf8Length = (s: string): number => new TextEncoder().encode(s).length;

// Python parity: jiter LinePosition — line and column (in UTF-8 bytes, from 1) of a byte offset.
function place(text: string, at: number): string {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return `line ${line} column ${utf8Length(text.slice(lineStart, at)) + 1}`;
}

// Python parity: pydantic-core's input_value for a str input: repr, cut to its first 25 and last 24 characters when longer than 50.
function inputValue(text: string): string {
  // A results file always holds '"', so repr quotes it with "'" (escaping any "'" inside): forced by a '"' added to each piece.
  const piece = (s: string): string => reprStr(`${s}"`).slice(1, -2);
  const cps = [...text.slice(0, 60)];
  const endCps = [...text.slice(-60)];
  const whole = text.length <= 60 ? `'${piece(text)}'` : null;
  if (whole !== null && [...whole].length <= 50) return whole;
  const head = [...`'${piece(cps.join(''))}`].slice(0, 25).join('');
  const tail = [...`${piece(endCps.join(''))}'`].slice(-24).join('');
  return `${head}...${tail}`;
}

const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const hex4 = (text: string, at: number): number | null => {
  for (let k = at; k < at + 4; k++) if (!isHex(text.charCodeAt(k))) return null;
  return parseInt(text.slice(at, at + 4), 16);
};

interface Frame {
  readonly array: boolean;
  /** An array's current index; an object's current key as -(the offset of its opening quote) - 1, ending at `keyEnd`. */
  at: number;
  keyEnd: number;
  expectKey: boolean;
}

function keyText(text: string, f: Frame): string {
  const raw = text.slice(-f.at - 1, f.keyEnd);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.slice(1, -1);
  }
}

const pathOf = (text: string, stack: readonly Frame[]): string => {
  const parts = stack.map((f) => (f.array ? String(f.at) : keyText(text, f)));
  return parts.length > 8 ? `${parts.slice(0, 8).join('.')}.…` : parts.join('.');
};

/**
 * The first thing jiter refuses in `text` (a text Python's json.loads reads), as
 * `<field path>: Invalid JSON: <message> at line L column C [type=json_invalid, input_value=…, input_type=str]`; null when none.
 */
// Python parity: jiter's PythonParser (_check_take_value's recursion limit, parse_escape's surrogates), as pydantic-core reports them.
export function tau2JsonRefusal(text: string): string | null {
  const stack: Frame[] = [];
  const refuse = (what: string, at: number): string =>
    `${pathOf(text, stack) || '(the file)'}: Invalid JSON: ${what} at ${place(text, at)} [type=json_invalid, input_value=${inputValue(text)}, input_type=str]`;
  const n = text.length;
  let nextSlash = text.indexOf('\\');
  let nextQuote = text.indexOf('"');
  for (let i = 0; i < n;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x3a) {
      i++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (c === 0x2c) {
      if (top !== undefined) {
        if (top.array) top.at++;
        else top.expectKey = true;
      }
      i++;
      continue;
    }
    if (c === 0x5d || c === 0x7d) {
      stack.pop();
      i++;
      continue;
    }
    const key = top !== undefined && !top.array && top.expectKey;
    if (!key && stack.length > JITER_RECURSION_LIMIT) return refuse('recursion limit exceeded', i);
    if (c === 0x5b || c === 0x7b) {
      stack.push({ array: c === 0x5b, at: 0, keyEnd: 0, expectKey: c === 0x7b });
      i++;
      continue;
    }
    if (c !== 0x22) {
      // A number or a literal: up to the next delimiter.
      while (i < n && !',]} \n\r\t:'.includes(text[i]!)) i++;
      continue;
    }
    const start = i++;
    // Through the string: the next quote or backslash found natively (most of a file is string text).
    for (;;) {
      if (nextSlash !== -1 && nextSlash < i) nextSlash = text.indexOf('\\', i);
      if (nextQuote !== -1 && nextQuote < i) nextQuote = text.indexOf('"', i);
      const quote = nextQuote;
      if (quote === -1) {
        i = n;
        break;
      }
      if (nextSlash === -1 || nextSlash > quote) {
        i = quote;
        break;
      }
      i = nextSlash;
      if (text.charCodeAt(i + 1) !== 0x75) {
        i += 2;
        continue;
      }
      const u = hex4(text, i + 2);
      if (u === null) {
        i += 2;
        continue;
      }
      const last = i + 5;
      if (u >= 0xdc00 && u <= 0xdfff) return refuse('lone leading surrogate in hex escape', last);
      if (u >= 0xd800 && u <= 0xdbff) {
        const next = last + 1;
        if (text.charCodeAt(next) !== 0x5c) return refuse('unexpected end of hex escape', next);
        if (text.charCodeAt(next + 1) !== 0x75) return refuse('unexpected end of hex escape', next + 1);
        const low = hex4(text, next + 2);
        if (low === null || low < 0xdc00 || low > 0xdfff) return refuse('lone leading surrogate in hex escape', next + 5);
        i = next + 6;
        continue;
      }
      i = last + 1;
    }
    i++;
    if (key) {
      // The key's text, decoded only if a refusal names it.
      top!.at = -start - 1;
      top!.keyEnd = i;
      top!.expectKey = false;
    }
  }
  return null;
}

/**
 * `tau2JsonRefusal(text)` without its scan of the whole text (a sixth of reading a large file) when it cannot refuse:
 * every value within jiter's recursion limit (`deepest`: the most containers `parseJson` found a value inside, as jiter
 * counts its stack) and no `\\u` escape of a lone surrogate (`loneSurrogateEscape`).
 */
export function tau2JsonRefusalOf(text: string, deepest: number): string | null {
  return deepest < JITER_RECURSION_LIMIT && !loneSurrogateEscape(text) ? null : tau2JsonRefusal(text);
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
/** A surrogate escape after an escaped backslash (`\\\\ud800`: is it an escape?), left to the full scan. */
const AFTER_BACKSLASH = /\\\\u[dD][89a-fA-F]/;
/** A high surrogate escape not followed by a low one, or a low one not after a high one. */
const LONE = /\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}/;

/**
 * Whether the text may hold a `\\u` escape of a lone surrogate, which jiter refuses: false for a text with none, or
 * with only pairs (`\\ud83d\\ude00`, as Python's `json.dumps` writes an emoji); true (then the full scan decides) for
 * a lone one or any surrogate escape after a backslash, where the pattern cannot tell an escape from escaped text.
 */
// Python parity: jiter parse_escape (a high surrogate escape must be followed by a low one).
function loneSurrogateEscape(text: string): boolean {
  return SURROGATE_ESCAPE.test(text) && (AFTER_BACKSLASH.test(text) || LONE.test(text));
}
