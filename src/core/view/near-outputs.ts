import type { Span } from '../env/output-match';

/** Why a thing the agent said is near a required output it did not say. */
export type NearKind = 'part-of-sum' | 'within-percent' | 'same-digits' | 'small-edit';

/** Something the agent said to the user (in a respond) that is near a missing required output. */
export interface NearSaid {
  /** As the agent wrote it. */
  readonly text: string;
  readonly kind: NearKind;
  /** In words: "3131.10 + 4777.75 + 367.38 = 8276.23", "1.2 % below", "2 edits away". */
  readonly detail: string;
  /** The first respond step that said it, its message, and where in the step's `respondText`. */
  readonly stepIndex: number;
  readonly messageIndex: number;
  readonly span: Span;
}

/** A respond the agent made: the step, its message and the text the user got. */
export interface SaidText {
  readonly stepIndex: number;
  readonly messageIndex: number;
  readonly text: string;
}

/** Within this share of the output's value a number counts as near. */
export const NEAR_PERCENT = 3;
/** At most this many numbers add up to the output as "parts of a sum". */
const MAX_PARTS = 4;
/** At most this many distinct numbers are tried as parts (the first said). */
const MAX_CANDIDATES = 60;
/** Only the first characters of each respond are read. */
const MAX_TEXT = 100_000;
const MAX_OTHERS = 5;
/** The largest share of chance hits tolerated for a sum of parts (see `partsOfSum`). */
const CHANCE = 0.02;

interface Occurrence {
  readonly text: string;
  readonly stepIndex: number;
  readonly messageIndex: number;
  readonly span: Span;
}

interface Num extends Occurrence {
  /** Digits without separators or point ("8276.23" → "827623"). */
  readonly digits: string;
  readonly int: string;
  readonly frac: string;
  /** Written as money: after a currency sign (`$1,625`). */
  readonly money: boolean;
}

const NUMBER = /(?<![\p{L}\p{N}_#.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\p{L}\p{N}_])/gu;
const OUTPUT_NUMBER = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/;
const WORD = /[\p{L}\p{N}_#@$%'-]+/gu;

/** An integer of 7 or more digits is an id (an order, an item, a phone number), not an amount. */
const idLike = (int: string, frac: string): boolean => frac === '' && int.length >= 7;

const scaled = (int: string, frac: string, decimals: number): bigint => BigInt(int + frac.padEnd(decimals, '0'));

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const JOINER = new Set(['-', '/', ':']);

/**
 * Numbers said, as amounts: not a piece of a date, a time or a range (`2024-05-28`, `10:30`,
 * `5-7`), nor a list item's number (`4. **Total**`).
 */
function numbersSaid(said: readonly SaidText[]): Num[] {
  const out: Num[] = [];
  for (const s of said) {
    const text = s.text.slice(0, MAX_TEXT);
    for (const m of text.matchAll(NUMBER)) {
      const start = m.index;
      const end = start + m[0].length;
      if ((JOINER.has(text[start - 1] ?? '') && isDigit(text[start - 2])) || (JOINER.has(text[end] ?? '') && isDigit(text[end + 1]))) continue;
      if (/(?:^|\n)[ \t]*$/.test(text.slice(Math.max(0, start - 40), start)) && /^[.)][ \t]/.test(text.slice(end, end + 2))) continue;
      const int = m[1]!.replaceAll(',', '').replace(/^0+(?=\d)/, '');
      const frac = m[2] ?? '';
      const money = /[$€£]\s?$/.test(text.slice(Math.max(0, start - 2), start));
      out.push({ text: m[0], stepIndex: s.stepIndex, messageIndex: s.messageIndex, span: { start, end }, digits: int + frac, int, frac, money });
    }
  }
  return out;
}

/** The first occurrence of each distinct value (as written without separators). */
function firstOfEach<T extends { readonly text: string }>(xs: readonly T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => {
    const k = key(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A scaled amount as text: 4n with 2 decimals → "0.04". */
const units = (x: bigint, decimals: number): string => {
  const t = x.toString().padStart(decimals + 1, '0');
  return decimals === 0 ? t : `${t.slice(0, -decimals)}.${t.slice(-decimals)}`;
};

const sortedDigits = (d: string): string => [...d].sort().join('');

/** Levenshtein distance, or `limit + 1` as soon as it must exceed `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      best = Math.min(best, v);
    }
    if (best > limit) return limit + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** How many ways to pick k of n. */
const choose = (n: number, k: number): number => {
  let c = 1;
  for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
  return c;
};

/**
 * The smallest set (2 to 4) of distinct values, in the order first said, that adds up to
 * `target`, among the set sizes where a sum that hits it by chance is unlikely: picking k of n
 * values gives C(n, k) sums, spread over the `target` possible amounts below it (in the
 * output's units, cents for 8276.23), so a size is tried only while C(n, k) / target ≤
 * {@link CHANCE}. Dense small whole amounts ($129, $198, $250, … towards 1786) are not tried.
 */
function partsOfSum(target: bigint, values: readonly bigint[]): number[] | null {
  const n = values.length;
  const at = new Map<bigint, number>();
  values.forEach((v, i) => at.set(v, i));
  const last = (sum: bigint, after: number): number | null => {
    const i = at.get(target - sum);
    return i !== undefined && i > after ? i : null;
  };
  const search = (k: number, from: number, sum: bigint, picked: number[]): number[] | null => {
    if (k === 1) {
      const i = last(sum, from - 1);
      return i === null ? null : [...picked, i];
    }
    for (let i = from; i < n; i++) {
      const s = sum + values[i]!;
      if (s >= target) continue;
      const found = search(k - 1, i + 1, s, [...picked, i]);
      if (found) return found;
    }
    return null;
  };
  for (let k = 2; k <= MAX_PARTS; k++) {
    if (choose(n, k) / Number(target) > CHANCE) break;
    const found = search(k, 0, 0n, []);
    if (found) return found;
  }
  return null;
}

function nearNumber(output: string, int: string, frac: string, said: readonly SaidText[]): NearSaid[] {
  const nums = numbersSaid(said).filter((n) => !(n.int === int && n.frac.replace(/0+$/, '') === frac.replace(/0+$/, '')));
  const near = (n: Num, kind: NearKind, detail: string): NearSaid => ({
    text: n.text,
    kind,
    detail,
    stepIndex: n.stepIndex,
    messageIndex: n.messageIndex,
    span: n.span,
  });
  const targetDigits = int + frac;
  const others: { n: NearSaid; rank: number }[] = [];
  const sums: NearSaid[] = [];
  if (idLike(int, frac)) {
    for (const n of firstOfEach(nums, (x) => x.digits)) {
      if (n.digits.length !== targetDigits.length) continue;
      const d = editDistance(n.digits, targetDigits, 2);
      if (d <= 2) others.push({ n: near(n, 'same-digits', d === 1 ? 'one digit differs' : `${d} digits differ`), rank: d });
      else if (sortedDigits(n.digits) === sortedDigits(targetDigits)) others.push({ n: near(n, 'same-digits', 'the same digits in another order'), rank: 3 });
    }
  } else {
    const decimals = Math.min(6, Math.max(frac.length, ...nums.map((n) => n.frac.length)));
    const target = scaled(int, frac.slice(0, decimals), decimals);
    const amounts = firstOfEach(
      nums.filter((n) => !idLike(n.int, n.frac) && n.frac.length <= decimals),
      (n) => scaled(n.int, n.frac, decimals).toString(),
    );
    for (const n of amounts) {
      const v = scaled(n.int, n.frac, decimals);
      if (target === 0n) continue;
      const off = Number(v - target) / Number(target);
      if (Math.abs(off) <= NEAR_PERCENT / 100) {
        const side = off < 0 ? 'below' : 'above';
        const by = Math.abs(off) < 0.001 ? units(v > target ? v - target : target - v, decimals) : `${(Math.abs(off) * 100).toFixed(1)} %`;
        others.push({ n: near(n, 'within-percent', `${by} ${side}`), rank: Math.abs(off) });
      } else if (
        n.digits.replace(/^0+/, '') === targetDigits.replace(/^0+/, '') ||
        (n.digits.length === targetDigits.length && sortedDigits(n.digits) === sortedDigits(targetDigits))
      )
        others.push({ n: near(n, 'same-digits', 'the same digits'), rank: 1 });
    }
    // Parts of a sum are amounts like the output: with as many decimals (cents), or, for a whole
    // number, written as money.
    const parts = amounts
      .filter((n) => {
        const v = scaled(n.int, n.frac, decimals);
        return v > 0n && v < target && (frac === '' ? n.money : n.frac.length === frac.length);
      })
      .slice(0, MAX_CANDIDATES);
    const found = partsOfSum(
      target,
      parts.map((n) => scaled(n.int, n.frac, decimals)),
    );
    if (found) {
      const detail = `${found.map((i) => parts[i]!.text).join(' + ')} = ${output}`;
      for (const i of found) sums.push(near(parts[i]!, 'part-of-sum', detail));
    }
  }
  others.sort((a, b) => a.rank - b.rank);
  const inSum = new Set(sums.map((s) => s.text));
  return [
    ...sums,
    ...others
      .map((o) => o.n)
      .filter((o) => !inSum.has(o.text))
      .slice(0, MAX_OTHERS),
  ];
}

function nearWords(output: string, said: readonly SaidText[]): NearSaid[] {
  const want = output.toLowerCase().trim();
  const width = want.split(/\s+/).length;
  const limit = want.length <= 5 ? 1 : want.length <= 10 ? 2 : 3;
  const found: { n: NearSaid; d: number }[] = [];
  const seen = new Set<string>();
  for (const s of said) {
    const words = [...s.text.slice(0, MAX_TEXT).matchAll(WORD)];
    for (let i = 0; i + width <= words.length; i++) {
      const first = words[i]!;
      const last = words[i + width - 1]!;
      const start = first.index;
      const end = last.index + last[0].length;
      const text = s.text.slice(start, end);
      const key = text.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      const d = editDistance(key, want, limit);
      if (d === 0 || d > limit) continue;
      found.push({
        n: {
          text,
          kind: 'small-edit',
          detail: d === 1 ? '1 edit away' : `${d} edits away`,
          stepIndex: s.stepIndex,
          messageIndex: s.messageIndex,
          span: { start, end },
        },
        d,
      });
    }
  }
  return found
    .sort((a, b) => a.d - b.d)
    .slice(0, MAX_OTHERS)
    .map((f) => f.n);
}

/**
 * The things the agent said to the user (its respond texts) closest to a required output it
 * never said: for a number, numbers within {@link NEAR_PERCENT} %, numbers with the same digits,
 * and the smallest set of numbers it said that add up to it (the parts of a sum it never gave);
 * for an id, ids a digit or two away; for words, words a small edit away. Each at its first saying.
 */
export function nearThingsSaid(output: string, said: readonly SaidText[]): NearSaid[] {
  const m = OUTPUT_NUMBER.exec(output.trim());
  if (m) return nearNumber(output.trim(), m[1]!.replaceAll(',', '').replace(/^0+(?=\d)/, ''), m[2] ?? '', said);
  return output.trim() === '' ? [] : nearWords(output, said);
}
