/**
 * sha256 of `json.dumps(db.model_dump(), sort_keys=True, default=str)` for DBs that share records
 * with a base (see `own`): the base's text is cut into tokens (table headers, one token per record,
 * separators), each record's token kept as bytes, and sha256 midstates saved every 64 KB. A DB made
 * from the base is hashed from the last midstate before its first token that differs, so an
 * environment that changed one reservation rehashes only what follows it in key order.
 */
import { compareCodePoints } from '../../py/hashable';
import { dumpsStr } from '../../py/json-dumps';
import { modelDump, PydModel, pyJsonDumps, type TValue } from '../../py/pydantic';
import { sha256Hex } from '../../py/hash';
import { sha256Stream } from '../../py/sha256';
import { SnapshotError } from '../../py/pydantic/snapshot';

type Token = string | Uint8Array;

// The dumps are ASCII (ensure_ascii), so a byte per character.
function asciiBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

const sortedJson = (v: TValue): string => pyJsonDumps(modelDump(v), { sortKeys: true });

/** Each base record's token (`"key": {...}`), by identity (a model, or a plain dict record as banking_knowledge's). */
const recordTokens = new WeakMap<PydModel | Map<string, TValue>, Uint8Array>();

function recordToken(key: string, rec: TValue, isBase: boolean): Token {
  if (!(rec instanceof PydModel || rec instanceof Map) || !isBase) return `${dumpsStr(key)}: ${sortedJson(rec)}`;
  let t = recordTokens.get(rec);
  if (t === undefined) recordTokens.set(rec, (t = asciiBytes(`${dumpsStr(key)}: ${sortedJson(rec)}`)));
  return t;
}

/** A `DatabaseTable` (fields exactly `data`, a dict, and `notes`), whose records are hashed one by one. */
const nestedTable = (v: TValue | undefined): v is PydModel =>
  v instanceof PydModel && v.fields.size === 2 && v.fields.get('data') instanceof Map && [...v.fields.keys()].join() === 'data,notes';

/** A number per byte token (record or whole table), so the memo key tells any two apart. */
const tokenIds = new WeakMap<Uint8Array, number>();
let nextTokenId = 0;
const tokenId = (t: Uint8Array): number => {
  let id = tokenIds.get(t);
  if (id === undefined) tokenIds.set(t, (id = nextTokenId++));
  return id;
};

const CHECKPOINT_EVERY = 64 * 1024;

const hashers = new WeakMap<PydModel, Tau2DbHasher>();

/** Table `name` of `db` as a dict of records (the `data` of a banking_knowledge table), or null. */
function tableOf(db: PydModel, name: string): Map<string, TValue> | null {
  const v = db.fields.get(name);
  const t = nestedTable(v) ? v.fields.get('data') : v;
  return t instanceof Map ? t : null;
}

const asciiText = (b: Uint8Array): string => new TextDecoder('latin1').decode(b);
const fail = (what: string): never => {
  throw new SnapshotError(`damaged snapshot: ${what}`);
};

/**
 * A base DB's text for a hasher made in another process: the tokens in order (text, or a table's index), each dict
 * table's records as one text (`{rec, rec}`) with the records' keys in key order and where each record's text ends.
 */
export interface Tau2HasherSnapshot {
  readonly baseHash: string;
  readonly tokens: readonly (string | number)[];
  readonly tables: readonly { readonly name: string; readonly keys: readonly string[]; readonly text: string; readonly ends: readonly number[] }[];
}

/** DB states remembered per base (two short strings each). */
const MEMO_LIMIT = 20_000;

export class Tau2DbHasher {
  private readonly tokens: Token[];
  /** Midstates: before token `at`. */
  private readonly checkpoints: { readonly at: number; readonly state: unknown }[] = [];
  private readonly baseHash: string;
  private readonly sortedKeys = new Map<string, string[]>();
  /** Each base table's records as one token (`{…}`), made once: a DB that left a table untouched shows this token for it. */
  private readonly tableTokens = new Map<string, Uint8Array>();
  /**
   * Hashes already computed, by a digest of how the DB's text departs from the base's (a DB state
   * that recurs — the gold state a passing simulation reaches, another trial's — is not rehashed).
   */
  private readonly memo = new Map<string, string>();

  /** `restored`: the base's tokens as a snapshot gave them (`Tau2DbHasher.restore`), checked against its hash. */
  private constructor(
    private readonly base: PydModel,
    restored?: { readonly tokens: Token[]; readonly baseHash: string },
  ) {
    this.tokens = restored?.tokens ?? this.tokensOf(base);
    const s = sha256Stream();
    let since = CHECKPOINT_EVERY;
    this.tokens.forEach((t, i) => {
      if (since >= CHECKPOINT_EVERY) {
        this.checkpoints.push({ at: i, state: s.save() });
        since = 0;
      }
      s.update(t);
      since += t.length;
    });
    this.baseHash = s.hex();
    if (restored !== undefined && restored.baseHash !== this.baseHash) throw new SnapshotError('the records’ text does not hash to the base’s hash');
  }

  /** The hasher of `base` (made once per base). */
  static of(base: PydModel): Tau2DbHasher {
    let h = hashers.get(base);
    if (h === undefined) hashers.set(base, (h = new Tau2DbHasher(base)));
    return h;
  }

  /**
   * The base's text as plain data (see `Tau2HasherSnapshot`), for a cache kept between processes: the records' dumps
   * are the slow part of making a hasher (every record printed as `json.dumps` prints it), the midstates are not kept
   * (hashing the text again from it takes milliseconds).
   */
  snapshot(): Tau2HasherSnapshot {
    const byToken = new Map<Uint8Array, number>();
    const tables: Tau2HasherSnapshot['tables'][number][] = [];
    for (const [name, token] of this.tableTokens) {
      byToken.set(token, tables.length);
      const keys = this.sortedKeys.get(name) ?? [];
      const ends: number[] = [];
      let at = 1;
      const baseTable = tableOf(this.base, name);
      for (const k of keys) {
        const rec = baseTable?.get(k);
        const t = rec instanceof PydModel || rec instanceof Map ? recordTokens.get(rec) : undefined;
        at += (t ?? recordToken(k, rec!, false)).length;
        ends.push(at);
        at += 2;
      }
      tables.push({ name, keys, text: asciiText(token), ends });
    }
    return { baseHash: this.baseHash, tokens: this.tokens.map((t) => (typeof t === 'string' ? t : (byToken.get(t) ?? asciiText(t)))), tables };
  }

  /**
   * The hasher of `base` from a snapshot of a base with the same content (the same data files, validated in an
   * earlier process): its records' tokens are seeded from the snapshot's text, so nothing is printed again. Throws
   * `SnapshotError` when the snapshot does not fit `base` (other tables or keys) or its text does not hash to its hash.
   */
  static restore(base: PydModel, snap: Tau2HasherSnapshot): Tau2DbHasher {
    if (hashers.has(base)) throw new SnapshotError('this base has a hasher already');
    const seeds: [PydModel | Map<string, TValue>, Uint8Array][] = [];
    const tableBytes = snap.tables.map((tb) => {
      const table = tableOf(base, tb.name);
      if (table === null || table.size !== tb.keys.length || tb.ends.length !== tb.keys.length) throw new SnapshotError(`table ${tb.name} does not fit`);
      const bytes = asciiBytes(tb.text);
      let start = 1;
      tb.keys.forEach((k, j) => {
        const rec = table.get(k);
        const end = tb.ends[j]!;
        if (rec === undefined || !(end > start && end < bytes.length)) throw new SnapshotError(`record ${tb.name}[${k}] does not fit`);
        if (rec instanceof PydModel || rec instanceof Map) seeds.push([rec, bytes.subarray(start, end)]);
        start = end + 2;
      });
      return bytes;
    });
    const tokens = snap.tokens.map((t) => (typeof t === 'string' ? t : (tableBytes[t] ?? fail(`table ${t}`))));
    const h = new Tau2DbHasher(base, { tokens, baseHash: snap.baseHash });
    snap.tables.forEach((tb, i) => {
      h.sortedKeys.set(tb.name, [...tb.keys]);
      h.tableTokens.set(tb.name, tableBytes[i]!);
    });
    for (const [rec, t] of seeds) recordTokens.set(rec, t);
    hashers.set(base, h);
    return h;
  }

  /** The records of table `name` (a dict of records, sorted by key) as tokens, or the base's whole-table token when none changed. */
  private recordTokens(name: string, v: Map<string, TValue>, baseTable: Map<string, TValue>, isBase: boolean, out: Token[]): void {
    let keys = this.sortedKeys.get(name);
    const sameKeys = keys !== undefined && keys.length === v.size && keys.every((k) => v.has(k));
    if (!sameKeys) {
      keys = [...v.keys()].sort(compareCodePoints);
      if (isBase) this.sortedKeys.set(name, keys);
    }
    const untouched = isBase || v === baseTable || (sameKeys && keys!.every((k) => v.get(k) === baseTable.get(k)));
    const cached = this.tableTokens.get(name);
    if (untouched && cached !== undefined) {
      out.push(cached);
      return;
    }
    const parts: Token[] = ['{'];
    keys!.forEach((k, j) => {
      if (j > 0) parts.push(', ');
      const rec = v.get(k)!;
      parts.push(recordToken(k, rec, baseTable.get(k) === rec));
    });
    parts.push('}');
    if (untouched) {
      const whole = concat(parts);
      this.tableTokens.set(name, whole);
      out.push(whole);
    } else out.push(...parts);
  }

  private tokensOf(db: PydModel): Token[] {
    const out: Token[] = [];
    const isBase = db === this.base;
    const names = [...db.fields.keys()].sort(compareCodePoints);
    names.forEach((name, i) => {
      let v = db.fields.get(name)!;
      let baseTable = this.base.fields.get(name);
      out.push(`${i > 0 ? ', ' : '{'}${dumpsStr(name)}: `);
      // banking_knowledge: a table is a model {data: {id: record}, notes: str}; its records are tokens as a dict field's are.
      const nested = nestedTable(v) && nestedTable(baseTable);
      if (nested) {
        out.push('{"data": ');
        v = (v as PydModel).fields.get('data')!;
        baseTable = (baseTable as PydModel).fields.get('data')!;
      }
      if (!(v instanceof Map) || !(baseTable instanceof Map)) out.push(sortedJson(v));
      else this.recordTokens(name, v, baseTable, isBase, out);
      if (nested) {
        const notes = (db.fields.get(name) as PydModel).fields.get('notes')!;
        out.push(`, "notes": ${typeof notes === 'string' ? dumpsStr(notes) : sortedJson(notes)}}`);
      }
    });
    out.push(names.length > 0 ? '}' : '{}');
    return out;
  }

  hash(db: PydModel): string {
    if (db === this.base) return this.baseHash;
    const tokens = this.tokensOf(db);
    let d = 0;
    while (d < tokens.length && d < this.tokens.length && tokens[d] === this.tokens[d]) d++;
    if (d === tokens.length && d === this.tokens.length) return this.baseHash;
    // The text from `d` on, exactly: a byte token (a base record, a base table) by its number, any other token by its
    // text (dumps are ASCII, so \u0001 and \u0002 never occur in one).
    const parts: string[] = [String(d)];
    for (let i = d; i < tokens.length; i++) {
      const t = tokens[i]!;
      parts.push(typeof t === 'string' ? `\u0001${t}` : `\u0002${tokenId(t)}`);
    }
    const key = sha256Hex(parts.join(''));
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    let from = this.checkpoints[0]!;
    for (const c of this.checkpoints) {
      if (c.at <= d) from = c;
      else break;
    }
    const s = sha256Stream();
    s.load(from.state);
    // One update for the whole rest (many small tokens would each cross into the hasher).
    s.update(concat(tokens.slice(from.at)));
    const hex = s.hex();
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    this.memo.set(key, hex);
    return hex;
  }
}

/** Tokens as one byte array (every token is ASCII). */
function concat(tokens: readonly Token[]): Uint8Array {
  let n = 0;
  for (const t of tokens) n += t.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const t of tokens) {
    if (typeof t === 'string') for (let i = 0; i < t.length; i++) out[at++] = t.charCodeAt(i);
    else {
      out.set(t, at);
      at += t.length;
    }
  }
  return out;
}

/** The hasher of a base DB (made once per base, or restored from a snapshot). */
export const hasherFor = (base: PydModel): Tau2DbHasher => Tau2DbHasher.of(base);
