import { sha256Stream } from '../py/sha256';
import type { PyDict, PyValue } from '../py/value';
import { parseJson } from '../py/json-parse';
import type { EpisodeRecord } from '../model/episode/types';

/** Plain JSON, as `JSON.parse` of the file would give it. */
export type PlainJson = null | boolean | number | string | PlainJson[] | { [k: string]: PlainJson };

/**
 * A Python value as plain JSON — what `JSON.parse` of the episode's text gives, so a copy of the
 * file re-written by any JSON tool fingerprints the same:
 * - an int within ±2^53 becomes a number, and so does a float (`1000.0` and `1000` both become 1000,
 *   as in JSON.parse);
 * - an int beyond ±2^53 becomes the string of its digits (JSON.parse would round it; rounding would
 *   let two different episodes share a fingerprint, a string cannot);
 * - NaN, Infinity and -Infinity (Python's json writes them) become those words as strings.
 */
export function plainJson(v: PyValue): PlainJson {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (Array.isArray(v)) return v.map(plainJson);
  // A key from the file stays data: on a null-prototype object `__proto__` is an ordinary key.
  const o = Object.create(null) as { [k: string]: PlainJson };
  for (const [k, x] of v) o[k] = plainJson(x);
  return o;
}

const get = (v: PyValue | undefined, k: string): PyValue | undefined => (v instanceof Map ? v.get(k) : undefined);

/**
 * The fingerprint formats, oldest first. 1: NaN, Infinity and ints beyond ±2^53 written as strings (`Infinity` and
 * `"Infinity"` shared one); 2: JSON's types kept, but an int and an integer-valued float written alike (`1` and `1.0`,
 * `0` and `-0.0`); 3 (today's): an int as Python reads it from the file (a plain integer literal) written as its digits,
 * a float as a float (`1.0`, `-0.0`, `1e+16`), so values Python's `str` and `json.dumps` write apart are two keys.
 * Notes kept under an older one attach where exactly one row had it (`attachNotes`).
 */
export type FingerprintFormat = 1 | 2 | 3;
export const FINGERPRINT_FORMAT: FingerprintFormat = 3;

/**
 * The key notes are stored under: sha256 (hex) of the canonical JSON (`fast-json-stable-stringify`:
 * keys sorted, no spaces) of `{task: info.task, traj}`, keeping JSON's types as Python reads them (`stableJson`):
 * NaN, Infinity and ints beyond ±2^53 are written as bare tokens, never as a string's text, and a float is
 * written as a float (`1.0`), never as an int's digits. The same episode opened from another copy of the file,
 * or from a share link, gets the same fingerprint; the file name, the episode's position and its reward do not enter it.
 */
export function episodeFingerprint(record: Pick<EpisodeRecord, 'raw'>): string {
  return episodeHash(record, FINGERPRINT_FORMAT);
}

/**
 * The fingerprints notes were kept under in older formats (`FingerprintFormat`) where they differ from today's:
 * format 2's where the episode holds an integer-valued float, format 1's where it holds NaN, Infinity or a big int;
 * empty for nearly every episode. Notes made under them attach where that is unambiguous (`attachNotes`).
 */
export function legacyEpisodeFingerprints(record: Pick<EpisodeRecord, 'raw'>): string[] {
  const raw = record.raw;
  const task = get(get(raw, 'info'), 'task') ?? null;
  const traj = get(raw, 'traj') ?? null;
  return olderFormats(task, traj).map((f) => episodeHash(record, f));
}

/** The older formats whose text of these values differs from today's (2 then 1; see `legacyEpisodeFingerprints`). */
function olderFormats(...vs: PyValue[]): FingerprintFormat[] {
  const out: FingerprintFormat[] = [];
  if (vs.some(floatsMatter)) out.push(2);
  if (vs.some(typesMatter)) out.push(1);
  return out;
}

function episodeHash(record: Pick<EpisodeRecord, 'raw'>, format: FingerprintFormat): string {
  const raw = record.raw;
  const task = get(get(raw, 'info'), 'task') ?? null;
  const traj = get(raw, 'traj') ?? null;
  const h = sha256Stream();
  // Written straight from the Python values, without building a plain copy first (it is made for every episode read).
  h.update(`{"task":${stableJson(task, format)},"traj":${stableJson(traj, format)}}`);
  return h.hex();
}

/** Whether `v` holds a value whose type format 1 lost: NaN, ±Infinity, an int beyond ±2^53. */
export function typesMatter(v: PyValue): boolean {
  if (typeof v === 'bigint') return v < -(2n ** 53n) || v > 2n ** 53n;
  if (typeof v === 'number') return !Number.isFinite(v);
  if (Array.isArray(v)) return v.some(typesMatter);
  if (v instanceof Map) {
    for (const x of v.values()) if (typesMatter(x)) return true;
  }
  return false;
}

/** Whether `v` holds an integer-valued float (`1.0`, `-0.0`, `1e16`): format 2 wrote it as an int's digits. */
export function floatsMatter(v: PyValue): boolean {
  if (typeof v === 'number') return Number.isInteger(v);
  if (Array.isArray(v)) return v.some(floatsMatter);
  if (v instanceof Map) {
    for (const x of v.values()) if (floatsMatter(x)) return true;
  }
  return false;
}

/** An episode's text that `JSON.parse` reads differently from Python's `json.loads` (see `nativeStable`). */
const AMBIGUOUS = Symbol('ambiguous');

/**
 * The canonical text `stableJson` gives for the Python value of this JSON, from what `JSON.parse` gives, taking
 * every integer-valued number for an int (`textFingerprints` makes sure none was a float literal) and adding each
 * one's value to `ints` — or `AMBIGUOUS` where the two readings may differ: an integer-valued number of 2^53 or
 * more (an int there is written as its digits, which JSON.parse has rounded), or a number JSON.parse made infinite
 * (Python's float is `inf` too, but it is written as a word). Everything else reads alike: a non-integer number is
 * a float in both, strings the same code units, and a key given twice keeps its last value in both.
 */
function nativeStable(v: unknown, ints: Set<number>): string | typeof AMBIGUOUS {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      if (!Number.isInteger(v)) return Number.isFinite(v) ? JSON.stringify(v) : AMBIGUOUS;
      // Python parity: json.loads (an int of any size is exact, a float past 1e308 is inf)
      if (Math.abs(v) >= 2 ** 53) return AMBIGUOUS;
      ints.add(v);
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (v === null) return 'null';
  let text: string;
  if (Array.isArray(v)) {
    text = '[';
    for (let k = 0; k < v.length; k++) {
      const item = nativeStable(v[k], ints);
      if (item === AMBIGUOUS) return item;
      text += k > 0 ? `,${item}` : item;
    }
    return `${text}]`;
  }
  const o = v as Record<string, unknown>;
  const names = Object.keys(o).sort();
  text = '{';
  for (const name of names) {
    const item = nativeStable(o[name], ints);
    if (item === AMBIGUOUS) return item;
    text += `${text.length > 1 ? ',' : ''}${JSON.stringify(name)}:${item}`;
  }
  return `${text}}`;
}

/**
 * Whether the JSON text holds, outside its strings, a float literal (a fraction or an exponent) whose value is an
 * integer in `ints` (`1.0` or `1e0` where an int 1 was read, `-0.0` where a 0 was): JSON.parse reads it as the same
 * number as the int, Python as a float. Strings are stepped over with `indexOf`; a literal inside one is text.
 */
// Python parity: json.loads (NUMBER_RE: an int only without fraction and exponent)
function floatLiteralAmong(text: string, ints: ReadonlySet<number>): boolean {
  const n = text.length;
  for (let i = 0; i < n;) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      let j = text.indexOf('"', i + 1);
      for (;;) {
        if (j === -1) return true;
        let k = j - 1;
        while (text.charCodeAt(k) === 92) k--;
        if ((j - 1 - k) % 2 === 0) break;
        j = text.indexOf('"', j + 1);
      }
      i = j + 1;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      let j = i + 1;
      let float = false;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d === 46 || d === 101 || d === 69) float = true;
        else if (!(d === 43 || d === 45 || (d >= 48 && d <= 57))) break;
      }
      if (float) {
        const x = Number(text.slice(i, j));
        if (Number.isInteger(x) && ints.has(x)) return true;
      }
      i = j;
    } else i++;
  }
  return false;
}

const field = (v: unknown, k: string): unknown =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, k) ? (v as Record<string, unknown>)[k] : undefined;

/**
 * `episodeFingerprint` of the episode whose JSON text (as in the file) this is, read again: with the
 * engine's `JSON.parse` (several times faster than the Python-exact reader), and with `parseJson` where
 * the two readings may differ (NaN, Infinity, ints of 2^53 and more, an integer-valued float literal; see
 * `nativeStable`). Lets a row's fingerprint be computed after its episode was read, from the bytes kept,
 * without keeping the parse.
 */
export function textFingerprint(text: string): string {
  return textFingerprints(text).fingerprint;
}

/** `textFingerprint` and the episode's fingerprints of older formats where they differ (`legacyEpisodeFingerprints`), from one reading. */
export function textFingerprints(text: string): { readonly fingerprint: string; readonly legacy: readonly string[] } {
  const exact = (): { fingerprint: string; legacy: string[] } => {
    const raw = parseJson(text);
    return { fingerprint: episodeFingerprint({ raw }), legacy: legacyEpisodeFingerprints({ raw }) };
  };
  let native: unknown;
  try {
    native = JSON.parse(text);
  } catch {
    return exact();
  }
  const ints = new Set<number>();
  const task = nativeStable(field(field(native, 'info'), 'task') ?? null, ints);
  const traj = task === AMBIGUOUS ? task : nativeStable(field(native, 'traj') ?? null, ints);
  // Only where the two readings may differ can the episode hold NaN, Infinity, an int past 2^53 or an integer-valued
  // float (a float literal elsewhere in the file, `"reward": 1.0` say, is looked at only when its value was read here).
  if (task === AMBIGUOUS || traj === AMBIGUOUS || (ints.size > 0 && floatLiteralAmong(text, ints))) return exact();
  const h = sha256Stream();
  h.update(`{"task":${task},"traj":${traj}}`);
  return { fingerprint: h.hex(), legacy: [] };
}

/**
 * The canonical text of a Python value in a fingerprint format (`FingerprintFormat`, today's by default):
 * `fast-json-stable-stringify(plainJson(v))` — keys sorted as `Array.prototype.sort` sorts them, no spaces —
 * except that NaN, Infinity, -Infinity and ints beyond ±2^53 are written as bare tokens (`NaN`, the digits),
 * which no string's text equals (format 1 wrote them as strings), and an integer-valued float as a float
 * (`1.0`, `-0.0`, `1e+21`), which no int's digits equal (formats 1 and 2 wrote `1`, `0`). Built by appending
 * to one string (no array of pieces per list or object: this runs over every episode read).
 */
export function stableJson(v: PyValue, format: FingerprintFormat = FINGERPRINT_FORMAT): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') {
    if (v >= -(2n ** 53n) && v <= 2n ** 53n) return JSON.stringify(Number(v));
    return format === 1 ? JSON.stringify(v.toString()) : v.toString();
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return format === 1 ? JSON.stringify(String(v)) : String(v);
    // Python parity: float.__repr__ / json.dumps (an integer-valued float keeps its `.0`; -0.0 its sign)
    if (format === 3 && Number.isInteger(v)) return Object.is(v, -0) ? '-0.0' : floatText(v);
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i === 0 ? '' : ',') + stableJson(v[i]!, format);
    return `${out}]`;
  }
  const keys = [...v.keys()];
  if (keys.length > 1) keys.sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) out += `${i === 0 ? '' : ','}${JSON.stringify(keys[i])}:${stableJson(v.get(keys[i]!)!, format)}`;
  return `${out}}`;
}

/** An integer-valued finite float's text: JavaScript's, with `.0` where that has neither fraction nor exponent (`1.0`, `1e+21`). */
const floatText = (v: number): string => {
  const s = JSON.stringify(v);
  return s.includes('e') ? s : `${s}.0`;
};

/** The fields of a τ² simulation its fingerprint covers: what it is and what was said; its reward and timing are left out, as a τ-bench episode's reward is. */
const TAU2_SIMULATION_FIELDS = ['id', 'task_id', 'trial', 'messages'] as const;

/**
 * The key a τ² simulation's notes are stored under: sha256 (hex) of the canonical JSON of
 * `{benchmark: "tau2", task, simulation: {id, task_id, trial, messages}}` (`stableJson`), `task` being
 * the task the results file embeds (null when it has none). Like `episodeFingerprint` it depends on
 * the content alone — the same simulation from another copy of the file, a run folder or a shared
 * link gets the same key, and a simulation whose messages differ (the same id re-run) another — and
 * the `benchmark` key keeps it apart from every τ-bench episode's (whose JSON has no such key).
 */
export function tau2SimulationFingerprint(task: PyValue | null, simulation: PyValue): string {
  return tau2Hash(task, simulation, FINGERPRINT_FORMAT);
}

/** The fingerprints a τ² simulation's notes were kept under in older formats, where they differ from today's (see `legacyEpisodeFingerprints`). */
export function legacyTau2SimulationFingerprints(task: PyValue | null, simulation: PyValue): string[] {
  return olderFormats(task, ...TAU2_SIMULATION_FIELDS.map((k) => get(simulation, k) ?? null)).map((f) => tau2Hash(task, simulation, f));
}

function tau2Hash(task: PyValue | null, simulation: PyValue, format: FingerprintFormat): string {
  const picked: PyDict = new Map(TAU2_SIMULATION_FIELDS.map((k) => [k, get(simulation, k) ?? null]));
  const whole: PyDict = new Map<string, PyValue>([
    ['benchmark', 'tau2'],
    ['task', task],
    ['simulation', picked],
  ]);
  const h = sha256Stream();
  h.update(stableJson(whole, format));
  return h.hex();
}
