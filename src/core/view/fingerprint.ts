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
 * The key notes are stored under: sha256 (hex) of the canonical JSON (`fast-json-stable-stringify`:
 * keys sorted, no spaces) of `{task: info.task, traj}` as plain JSON, keeping JSON's types (`stableJson`):
 * NaN, Infinity and ints beyond ±2^53 are written as bare tokens, never as a string's text. The same
 * episode opened from another copy of the file, or from a share link, gets the same fingerprint; the
 * file name, the episode's position and its reward do not enter it.
 */
export function episodeFingerprint(record: Pick<EpisodeRecord, 'raw'>): string {
  return episodeHash(record, false);
}

/**
 * The fingerprint notes were kept under before fingerprints kept JSON's types (NaN, Infinity and big ints
 * written as strings, so `Infinity` and `"Infinity"` shared one); null when it is the same as today's (the
 * episode holds none of them: nearly every episode). Notes made under it attach where it is unambiguous
 * (`attachNotes`).
 */
export function legacyEpisodeFingerprint(record: Pick<EpisodeRecord, 'raw'>): string | null {
  const raw = record.raw;
  return typesMatter(get(get(raw, 'info'), 'task') ?? null) || typesMatter(get(raw, 'traj') ?? null) ? episodeHash(record, true) : null;
}

function episodeHash(record: Pick<EpisodeRecord, 'raw'>, legacy: boolean): string {
  const raw = record.raw;
  const task = get(get(raw, 'info'), 'task') ?? null;
  const traj = get(raw, 'traj') ?? null;
  const h = sha256Stream();
  // Written straight from the Python values, without building a plain copy first (it is made for every episode read).
  h.update(`{"task":${stableJson(task, legacy)},"traj":${stableJson(traj, legacy)}}`);
  return h.hex();
}

/** Whether `v` holds a value whose type the old fingerprint lost: NaN, ±Infinity, an int beyond ±2^53. */
export function typesMatter(v: PyValue): boolean {
  if (typeof v === 'bigint') return v < -(2n ** 53n) || v > 2n ** 53n;
  if (typeof v === 'number') return !Number.isFinite(v);
  if (Array.isArray(v)) return v.some(typesMatter);
  if (v instanceof Map) {
    for (const x of v.values()) if (typesMatter(x)) return true;
  }
  return false;
}

/** An episode's text that `JSON.parse` reads differently from Python's `json.loads` (see `nativeStable`). */
const AMBIGUOUS = Symbol('ambiguous');

/**
 * The canonical text `stableJson` gives for the Python value of this JSON, from what `JSON.parse` gives —
 * or `AMBIGUOUS` where the two readings may differ: an integer-valued number of 2^53 or more (an int there
 * is written as its digits, which JSON.parse has rounded), or a number JSON.parse made infinite (Python's
 * float is `inf` too, but it is written as a word). Everything else reads alike: a float and an int within
 * 2^53 are the same number, strings the same code units, and a key given twice keeps its last value in both.
 */
function nativeStable(v: unknown): string | typeof AMBIGUOUS {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      // Python parity: json.loads (an int of any size is exact, a float past 1e308 is inf)
      return !Number.isFinite(v) || (Number.isInteger(v) && Math.abs(v) >= 2 ** 53) ? AMBIGUOUS : JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (v === null) return 'null';
  let text: string;
  if (Array.isArray(v)) {
    text = '[';
    for (let k = 0; k < v.length; k++) {
      const item = nativeStable(v[k]);
      if (item === AMBIGUOUS) return item;
      text += k > 0 ? `,${item}` : item;
    }
    return `${text}]`;
  }
  const o = v as Record<string, unknown>;
  const names = Object.keys(o).sort();
  text = '{';
  for (const name of names) {
    const item = nativeStable(o[name]);
    if (item === AMBIGUOUS) return item;
    text += `${text.length > 1 ? ',' : ''}${JSON.stringify(name)}:${item}`;
  }
  return `${text}}`;
}

const field = (v: unknown, k: string): unknown =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, k) ? (v as Record<string, unknown>)[k] : undefined;

/**
 * `episodeFingerprint` of the episode whose JSON text (as in the file) this is, read again: with the
 * engine's `JSON.parse` (several times faster than the Python-exact reader), and with `parseJson` where
 * the two readings may differ (NaN, Infinity, ints of 2^53 and more; see `nativeStable`). Lets a row's
 * fingerprint be computed after its episode was read, from the bytes kept, without keeping the parse.
 */
export function textFingerprint(text: string): string {
  return textFingerprints(text).fingerprint;
}

/** `textFingerprint` and, where it differs, the episode's fingerprint of the old format (`legacyEpisodeFingerprint`), from one reading. */
export function textFingerprints(text: string): { readonly fingerprint: string; readonly legacy: string | null } {
  const exact = (): { fingerprint: string; legacy: string | null } => {
    const raw = parseJson(text);
    return { fingerprint: episodeFingerprint({ raw }), legacy: legacyEpisodeFingerprint({ raw }) };
  };
  let native: unknown;
  try {
    native = JSON.parse(text);
  } catch {
    return exact();
  }
  const task = nativeStable(field(field(native, 'info'), 'task') ?? null);
  const traj = task === AMBIGUOUS ? task : nativeStable(field(native, 'traj') ?? null);
  // Only where the two readings may differ can the episode hold NaN, Infinity or an int past 2^53.
  if (task === AMBIGUOUS || traj === AMBIGUOUS) return exact();
  const h = sha256Stream();
  h.update(`{"task":${task},"traj":${traj}}`);
  return { fingerprint: h.hex(), legacy: null };
}

/**
 * `fast-json-stable-stringify(plainJson(v))` — keys sorted as `Array.prototype.sort` sorts them, no spaces —
 * except that NaN, Infinity, -Infinity and ints beyond ±2^53 are written as bare tokens (`NaN`, the digits),
 * which no string's text equals; `legacy` writes them as strings, as fingerprints did before. Built by
 * appending to one string (no array of pieces per list or object: this runs over every episode read).
 */
export function stableJson(v: PyValue, legacy = false): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') {
    if (v >= -(2n ** 53n) && v <= 2n ** 53n) return JSON.stringify(Number(v));
    return legacy ? JSON.stringify(v.toString()) : v.toString();
  }
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : legacy ? JSON.stringify(String(v)) : String(v);
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i === 0 ? '' : ',') + stableJson(v[i]!, legacy);
    return `${out}]`;
  }
  const keys = [...v.keys()];
  if (keys.length > 1) keys.sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) out += `${i === 0 ? '' : ','}${JSON.stringify(keys[i])}:${stableJson(v.get(keys[i]!)!, legacy)}`;
  return `${out}}`;
}

/** The fields of a τ² simulation its fingerprint covers: what it is and what was said; its reward and timing are left out, as a τ-bench episode's reward is. */
const TAU2_SIMULATION_FIELDS = ['id', 'task_id', 'trial', 'messages'] as const;

/**
 * The key a τ² simulation's notes are stored under: sha256 (hex) of the canonical JSON of
 * `{benchmark: "tau2", task, simulation: {id, task_id, trial, messages}}` as plain JSON, `task` being
 * the task the results file embeds (null when it has none). Like `episodeFingerprint` it depends on
 * the content alone — the same simulation from another copy of the file, a run folder or a shared
 * link gets the same key, and a simulation whose messages differ (the same id re-run) another — and
 * the `benchmark` key keeps it apart from every τ-bench episode's (whose JSON has no such key).
 */
export function tau2SimulationFingerprint(task: PyValue | null, simulation: PyValue): string {
  return tau2Hash(task, simulation, false);
}

/** The fingerprint a τ² simulation's notes were kept under before fingerprints kept JSON's types; null when it is today's (see `legacyEpisodeFingerprint`). */
export function legacyTau2SimulationFingerprint(task: PyValue | null, simulation: PyValue): string | null {
  return typesMatter(task) || TAU2_SIMULATION_FIELDS.some((k) => typesMatter(get(simulation, k) ?? null)) ? tau2Hash(task, simulation, true) : null;
}

function tau2Hash(task: PyValue | null, simulation: PyValue, legacy: boolean): string {
  const picked: PyDict = new Map(TAU2_SIMULATION_FIELDS.map((k) => [k, get(simulation, k) ?? null]));
  const whole: PyDict = new Map<string, PyValue>([
    ['benchmark', 'tau2'],
    ['task', task],
    ['simulation', picked],
  ]);
  const h = sha256Stream();
  h.update(stableJson(whole, legacy));
  return h.hex();
}
