import { pyLower, pyLowerWithout, pyLowerWithoutSpan } from '../py/lower';

/** Where an expected output matched inside a message: UTF-16 offsets into the original text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

const isHigh = (u: number): boolean => u >= 0xd800 && u <= 0xdbff;
const isLow = (u: number): boolean => u >= 0xdc00 && u <= 0xdfff;

/**
 * One message text prepared for τ-bench's outputs test, `output.lower() in
 * content.lower().replace(",", "")`: the normalised text is computed once, on the first
 * `find`, and reused for every output checked against this text. Memory: the original and the
 * normalised string, nothing per character; offsets are mapped back only for a match.
 */
// Python parity: tau_bench.envs.base.Env.calculate_reward (outputs check). The order matters:
// content is lower-cased first (Final_Sigma sees the commas: 'ΑΣ,Α' → 'ας,α' → 'αςα'), then
// commas are removed.
export class OutputHaystack {
  private normalised: string | null = null;
  /** Normalised offsets are original offsets (no comma, no length change). */
  private sameOffsets = false;

  readonly content: string;

  constructor(content: string) {
    this.content = content;
  }

  private text(): string {
    if (this.normalised === null) {
      this.normalised = pyLowerWithout(this.content, ',');
      // No code point lower-cases to fewer UTF-16 units (test/core/py-lower.spec.ts checks it),
      // so equal total length means every code point kept its length.
      this.sameOffsets = this.normalised.length === this.content.length && !this.content.includes(',');
    }
    return this.normalised;
  }

  /** Where `output` matches, as offsets into `content`; null when τ-bench would not find it. */
  find(output: string): Span | null {
    const hay = this.text();
    const needle = pyLower(output);
    // Python parity: str.__contains__ ('' is in every string).
    if (needle.length === 0) return { start: 0, end: 0 };
    let at = hay.indexOf(needle);
    // Python compares code points: a needle that starts with a low surrogate or ends with a high
    // one does not match half of a surrogate pair.
    const first = needle.charCodeAt(0);
    const last = needle.charCodeAt(needle.length - 1);
    if (isLow(first) || isHigh(last)) {
      while (at >= 0 && ((isLow(first) && at > 0 && isHigh(hay.charCodeAt(at - 1))) || (isHigh(last) && isLow(hay.charCodeAt(at + needle.length)))))
        at = hay.indexOf(needle, at + 1);
    }
    if (at < 0) return null;
    if (this.sameOffsets) return { start: at, end: at + needle.length };
    return pyLowerWithoutSpan(this.content, ',', at, at + needle.length);
  }
}

/** One-off `matchOutput`; use an OutputHaystack to check several outputs against one text. */
export function matchOutput(output: string, content: string): Span | null {
  return new OutputHaystack(content).find(output);
}
