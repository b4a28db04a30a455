/** Where an expected output matched inside a message: UTF-16 offsets into the original text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

// Python parity: str.lower() is per character (no final-sigma rule, unlike String.prototype.toLowerCase).
export function pyLower(s: string): string {
  if (/^[\x00-\x7f]*$/.test(s)) return s.toLowerCase();
  let out = '';
  for (const ch of s) out += ch === 'Σ' ? 'σ' : ch.toLowerCase();
  return out;
}

/**
 * τ-bench's test `output.lower() in content.lower().replace(",", "")`, returning where in the
 * original `content` the match lies (commas inside the match are part of the span).
 */
// Python parity: tau_bench.envs.base.Env.calculate_reward (outputs check).
export function matchOutput(output: string, content: string): Span | null {
  const needle = pyLower(output);
  let haystack = '';
  const origin: number[] = [];
  let i = 0;
  for (const ch of content) {
    const width = ch.length;
    if (ch !== ',') {
      const low = ch === 'Σ' ? 'σ' : ch.toLowerCase();
      haystack += low;
      for (let k = 0; k < low.length; k++) origin.push(i);
    }
    i += width;
  }
  const at = haystack.indexOf(needle);
  if (at < 0) return null;
  if (needle.length === 0) return { start: origin[0] ?? 0, end: origin[0] ?? 0 };
  const last = origin[at + needle.length - 1]!;
  const lastWidth = content.codePointAt(last)! > 0xffff ? 2 : 1;
  return { start: origin[at]!, end: last + lastWidth };
}
