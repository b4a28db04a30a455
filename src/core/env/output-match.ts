import { pyLower, pyLowerWithoutChunks, pyLowerWithoutSpan } from '../py/lower';

/** Where an expected output matched inside a message: UTF-16 offsets into the original text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

const isHigh = (u: number): boolean => u >= 0xd800 && u <= 0xdbff;
const isLow = (u: number): boolean => u >= 0xdc00 && u <= 0xdfff;

/** A long string kept as consecutive chunks, searched without ever being joined. */
export class ChunkedText {
  readonly chunks: readonly string[];
  /** starts[k]: offset of chunks[k] in the whole text; starts[chunks.length]: its length. */
  private readonly starts: number[];

  constructor(chunks: readonly string[]) {
    this.chunks = chunks;
    this.starts = [0];
    for (const c of chunks) this.starts.push(this.starts[this.starts.length - 1]! + c.length);
  }

  get length(): number {
    return this.starts[this.chunks.length]!;
  }

  /** The chunk holding offset `at` (the last chunk for the end offset). */
  private chunkAt(at: number): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The code unit at `at`, NaN outside the text (like String.prototype.charCodeAt). */
  charCodeAt(at: number): number {
    if (at < 0 || at >= this.length) return NaN;
    const k = this.chunkAt(at);
    return this.chunks[k]!.charCodeAt(at - this.starts[k]!);
  }

  /** Like String.prototype.indexOf on the whole text, for a non-empty `needle`. */
  indexOf(needle: string, from = 0): number {
    const n = needle.length;
    for (let k = this.chunkAt(Math.max(0, from)); k < this.chunks.length; k++) {
      const chunk = this.chunks[k]!;
      const local = Math.max(0, from - this.starts[k]!);
      const inside = chunk.indexOf(needle, local);
      if (inside >= 0) return this.starts[k]! + inside;
      if (k + 1 === this.chunks.length || n === 1) continue;
      // Matches that start in this chunk's last n - 1 units and run into the next chunks.
      const tailFrom = Math.max(local, chunk.length - n + 1);
      let window = chunk.slice(tailFrom);
      const tailLength = window.length;
      for (let j = k + 1; j < this.chunks.length && window.length < tailLength + n - 1; j++)
        window += this.chunks[j]!.slice(0, tailLength + n - 1 - window.length);
      const across = window.indexOf(needle);
      if (across >= 0 && across < tailLength) return this.starts[k]! + tailFrom + across;
    }
    return -1;
  }
}

/**
 * One message text prepared for τ-bench's outputs test, `output.lower() in
 * content.lower().replace(",", "")`: the normalised text is computed once, on the first
 * `find`, and reused for every output checked against this text. Memory: the original and the
 * normalised text (in chunks, never joined), nothing per character; offsets are mapped back by
 * rescanning the original only when an output is found.
 */
// Python parity: tau_bench.envs.base.Env.calculate_reward (outputs check). The order matters:
// content is lower-cased first (Final_Sigma sees the commas: 'ΑΣ,Α' → 'ας,α' → 'αςα'), then
// commas are removed.
export class OutputHaystack {
  readonly content: string;
  private normalised: ChunkedText | null = null;
  /** Normalised offsets are original offsets (no comma, no length change). */
  private sameOffsets = false;

  constructor(content: string) {
    this.content = content;
  }

  /** `content.lower().replace(",", "")`, computed once. */
  text(): ChunkedText {
    if (this.normalised === null) {
      this.normalised = new ChunkedText(pyLowerWithoutChunks(this.content, ','));
      // No code point lower-cases to fewer UTF-16 units (test/core/py/lower.spec.ts checks it),
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
      while (at >= 0 && ((isLow(first) && isHigh(hay.charCodeAt(at - 1))) || (isHigh(last) && isLow(hay.charCodeAt(at + needle.length)))))
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
