/**
 * sha256 of `json.dumps(db.model_dump(), sort_keys=True, default=str)` for DBs that share tables and records with a
 * base (see `own`, `ownTable`): the base's whole text is printed once into one byte array, with where each table and
 * each record of a dict table lies in it, and sha256 midstates saved every 64 KB of it. A DB made from the base is
 * described as pieces — spans of the base's text (a table no call wrote, a run of records no call changed, with the
 * separators between them) and text of its own (a changed or new record) — and hashed from the last midstate before
 * its first byte that differs: the base's bytes up to there, then its pieces, with no copy of the text. Hashes are
 * remembered by that description, so a recurring DB state (a passing simulation's predicted DB is the gold one) is
 * hashed once.
 */
import { compareCodePoints } from '../../py/hashable';
import { dumpsStr } from '../../py/json-dumps';
import { modelDump, PydModel, pyJsonDumps, type TValue } from '../../py/pydantic';
import { sha256Hex } from '../../py/hash';
import { sha256Stream } from '../../py/sha256';
import { SnapshotError } from '../../py/pydantic/snapshot';
import { DictCopy, recordIdentity } from '../../py/pydantic/lazy-dict';

/** Text of a DB's own, or a span of the base's text. */
type Piece = string | Span;
interface Span {
  readonly from: number;
  to: number;
}

const sortedJson = (v: TValue): string => pyJsonDumps(modelDump(v), { sortKeys: true });
const recordText = (key: string, rec: TValue): string => `${dumpsStr(key)}: ${sortedJson(rec)}`;

/** Each base record's text (`"key": {...}`) by identity (a model, or a plain dict record as banking_knowledge's): a view of its base's text. */
const recordTexts = new WeakMap<PydModel | Map<string, TValue>, Uint8Array>();
const keepable = (rec: TValue | undefined): rec is PydModel | Map<string, TValue> => rec instanceof PydModel || rec instanceof Map;

/** A `DatabaseTable` (fields exactly `data`, a dict, and `notes`), whose records are hashed one by one. */
const nestedTable = (v: TValue | undefined): v is PydModel =>
  v instanceof PydModel && v.fields.size === 2 && v.fields.get('data') instanceof Map && [...v.fields.keys()].join() === 'data,notes';

/** Table `name` of `db` as a dict of records (the `data` of a banking_knowledge table), or null. */
function tableOf(db: PydModel, name: string): Map<string, TValue> | null {
  const v = db.fields.get(name);
  const t = nestedTable(v) ? v.fields.get('data') : v;
  return t instanceof Map ? t : null;
}

/** A dict table of the base: its records' keys in key order, and where the table and each record lie in the base's text. */
interface BaseTable {
  readonly name: string;
  readonly map: Map<string, TValue>;
  readonly keys: readonly string[];
  readonly index: ReadonlyMap<string, number>;
  /** The table's `{` and the byte after its `}`. */
  start: number;
  end: number;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
}

/** The base's text in the order printed: text, or a dict table's records (by the table's number). */
type Layout = (string | number)[];

function baseTable(name: string, map: Map<string, TValue>, keys: readonly string[]): BaseTable {
  return {
    name,
    map,
    keys,
    index: new Map(keys.map((k, j) => [k, j])),
    start: 0,
    end: 0,
    starts: new Uint32Array(keys.length),
    ends: new Uint32Array(keys.length),
  };
}

/** The place of the first of `keys` (in code-point order) after `k`, which is not among them. */
function lowerBound(keys: readonly string[], k: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareCodePoints(keys[mid]!, k) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const CHECKPOINT_EVERY = 64 * 1024;
/** DB states remembered per base (a short string each). */
const MEMO_LIMIT = 20_000;

const hashers = new WeakMap<PydModel, Tau2DbHasher>();

const fail = (what: string): never => {
  throw new SnapshotError(`damaged snapshot: ${what}`);
};

/**
 * A base DB's text for a hasher made in another process: the text itself travels beside this as bytes (`snapshot`'s
 * `text`); this says where each dict table lies in it (its `{` and the byte after its `}`), its records' keys in key
 * order and where each record's text ends (from the table's start), and the hash the whole text must have.
 */
export interface Tau2HasherSnapshot {
  readonly baseHash: string;
  readonly tables: readonly {
    readonly name: string;
    readonly keys: readonly string[];
    readonly start: number;
    readonly end: number;
    readonly ends: readonly number[];
  }[];
}

export class Tau2DbHasher {
  /** The base's whole text. */
  private readonly text: Uint8Array;
  private readonly tables: BaseTable[] = [];
  private readonly byName = new Map<string, BaseTable>();
  /** Midstates: before byte `at` of the base's text. */
  private readonly checkpoints: { readonly at: number; readonly state: unknown }[] = [];
  /** The sha256 of the base's whole text (what the memo's keys are relative to: places in that text). */
  readonly baseHash: string;
  /** Hashes already computed, by a digest of how the DB's text departs from the base's. */
  private readonly memo = new Map<string, string>();
  /** The memo's entries computed here and not yet handed on (`takeKnown`). */
  private readonly fresh: [string, string][] = [];

  /** `restored`: the base's text and where its dict tables and records lie, as a snapshot gave them, checked against its hash. */
  private constructor(
    private readonly base: PydModel,
    restored?: {
      readonly text: Uint8Array;
      readonly baseHash: string;
      readonly tables: readonly BaseTable[];
    },
  ) {
    if (restored === undefined) this.text = this.print();
    else {
      for (const t of restored.tables) {
        this.tables.push(t);
        this.byName.set(t.name, t);
      }
      this.text = restored.text;
    }
    const text = this.text;
    // A record not decoded yet (a lazily read table) has no object to know it by: nothing shares it.
    for (const t of this.tables)
      t.keys.forEach((k, j) => {
        const rec = recordIdentity(t.map, k) as TValue | undefined;
        if (keepable(rec) && !recordTexts.has(rec)) recordTexts.set(rec, text.subarray(t.starts[j], t.ends[j]));
      });
    const s = sha256Stream();
    for (let i = 0; i < text.length; i += CHECKPOINT_EVERY) {
      this.checkpoints.push({ at: i, state: s.save() });
      s.update(text.subarray(i, Math.min(text.length, i + CHECKPOINT_EVERY)));
    }
    if (this.checkpoints.length === 0) this.checkpoints.push({ at: 0, state: s.save() });
    this.baseHash = s.hex();
    if (restored !== undefined && restored.baseHash !== this.baseHash) throw new SnapshotError('the records’ text does not hash to the base’s hash');
  }

  /** The base's whole text printed (each record as it is dumped, or the text a base sharing it had), and where each table and record lies in it. */
  private print(): Uint8Array {
    const layout: Layout = [];
    const records: (readonly (Uint8Array | string)[])[] = [];
    this.walk(
      this.base,
      (name, map) => {
        const keys = [...map.keys()].sort(compareCodePoints);
        this.addTable(name, map, keys);
        records.push(
          keys.map((k) => {
            const rec = map.get(k)!;
            return (keepable(rec) ? recordTexts.get(rec) : undefined) ?? recordText(k, rec);
          }),
        );
        return this.tables.length - 1;
      },
      layout,
    );
    let n = 0;
    for (const part of layout) {
      if (typeof part === 'string') n += part.length;
      else {
        const recs = records[part]!;
        n += 2 + Math.max(0, recs.length - 1) * 2;
        for (const r of recs) n += r.length;
      }
    }
    const text = new Uint8Array(n);
    let at = 0;
    const put = (s: string): void => {
      for (let i = 0; i < s.length; i++) text[at++] = s.charCodeAt(i);
    };
    for (const part of layout) {
      if (typeof part === 'string') {
        put(part);
        continue;
      }
      const t = this.tables[part]!;
      t.start = at;
      put('{');
      records[part]!.forEach((r, j) => {
        if (j > 0) put(', ');
        t.starts[j] = at;
        if (typeof r === 'string') put(r);
        else {
          text.set(r, at);
          at += r.length;
        }
        t.ends[j] = at;
      });
      put('}');
      t.end = at;
    }
    return text;
  }

  private addTable(name: string, map: Map<string, TValue>, keys: readonly string[]): void {
    const t = baseTable(name, map, keys);
    this.tables.push(t);
    this.byName.set(name, t);
  }

  /**
   * `db`'s text in the order printed: the fields by name, each a header and its value; a dict of records (or a
   * banking_knowledge table's `data`) handed to `table`, which answers what goes in its place.
   */
  private walk<P>(db: PydModel, table: (name: string, map: Map<string, TValue>) => P, out: (string | P)[]): void {
    const names = [...db.fields.keys()].sort(compareCodePoints);
    names.forEach((name, i) => {
      const v = db.fields.get(name)!;
      out.push(`${i > 0 ? ', ' : '{'}${dumpsStr(name)}: `);
      // banking_knowledge: a table is a model {data: {id: record}, notes: str}; its records are hashed as a dict field's are.
      const nested = nestedTable(v) && nestedTable(this.base.fields.get(name));
      const map = nested ? (v as PydModel).fields.get('data')! : v;
      if (nested) out.push('{"data": ');
      if (map instanceof Map && (db === this.base || this.byName.has(name))) out.push(table(name, map));
      else out.push(sortedJson(map));
      if (nested) {
        const notes = (v as PydModel).fields.get('notes')!;
        out.push(`, "notes": ${typeof notes === 'string' ? dumpsStr(notes) : sortedJson(notes)}}`);
      }
    });
    out.push(names.length > 0 ? '}' : '{}');
  }

  /** The hasher of `base` (made once per base). */
  static of(base: PydModel): Tau2DbHasher {
    let h = hashers.get(base);
    if (h === undefined) hashers.set(base, (h = new Tau2DbHasher(base)));
    return h;
  }

  /**
   * The base's text and where its tables and records lie (see `Tau2HasherSnapshot`), for a cache kept between
   * processes: the records' dumps are the slow part of making a hasher (every record printed as `json.dumps` prints
   * it), the midstates are not kept (hashing the text again takes milliseconds). `text` is the hasher's own (not a copy).
   */
  snapshot(): { readonly meta: Tau2HasherSnapshot; readonly text: Uint8Array } {
    return {
      meta: {
        baseHash: this.baseHash,
        tables: this.tables.map((t) => ({ name: t.name, keys: [...t.keys], start: t.start, end: t.end, ends: [...t.ends].map((e) => e - t.start) })),
      },
      text: this.text,
    };
  }

  /**
   * The hasher of `base` from a snapshot of a base with the same content (the same data files, validated in an
   * earlier process): its text is the snapshot's `text` (kept, not copied), so nothing is printed again. Throws
   * `SnapshotError` when the snapshot does not fit `base` (other tables or keys, places outside the text or not on its
   * braces and separators) or its text does not hash to its hash.
   */
  static restore(base: PydModel, snap: Tau2HasherSnapshot, text: Uint8Array): Tau2DbHasher {
    if (hashers.has(base)) throw new SnapshotError('this base has a hasher already');
    if (typeof snap !== 'object' || snap === null || !Array.isArray(snap.tables) || typeof snap.baseHash !== 'string') fail('hasher');
    const at = (i: number, c: string): boolean => text[i] === c.charCodeAt(0);
    let after = 0;
    const tables = snap.tables.map((tb) => {
      const map = tableOf(base, tb.name);
      const { keys, ends, start, end } = tb;
      if (map === null || !Array.isArray(keys) || map.size !== keys.length || !Array.isArray(ends) || ends.length !== keys.length)
        throw new SnapshotError(`table ${tb.name} does not fit`);
      if (!(Number.isInteger(start) && Number.isInteger(end) && start >= after && end <= text.length && at(start, '{') && at(end - 1, '}')))
        fail(`table ${tb.name}`);
      after = end;
      const t = baseTable(tb.name, map, keys);
      t.start = start;
      t.end = end;
      let from = start + 1;
      keys.forEach((k, j) => {
        const e = start + ends[j]!;
        if (!map.has(k) || !(Number.isInteger(e) && e > from && e < end) || !(j === keys.length - 1 ? e === end - 1 : at(e, ',') && at(e + 1, ' ')))
          throw new SnapshotError(`record ${tb.name}[${k}] does not fit`);
        t.starts[j] = from;
        t.ends[j] = e;
        from = e + 2;
      });
      return t;
    });
    const hasher = new Tau2DbHasher(base, { text, baseHash: snap.baseHash, tables });
    hashers.set(base, hasher);
    return hasher;
  }

  /** The pieces of a dict table of `db` that may share records with the base's table `t`. */
  private tablePieces(t: BaseTable, map: Map<string, TValue>): Piece[] {
    if (map === t.map) return [{ from: t.start, to: t.end }];
    if (map instanceof DictCopy && map.origin === t.map) return this.copyPieces(t, map);
    let sameKeys = map.size === t.keys.length;
    if (sameKeys) for (const k of map.keys()) if (!t.index.has(k)) sameKeys = false;
    const keys = sameKeys ? t.keys : [...map.keys()].sort(compareCodePoints);
    const out: Piece[] = ['{'];
    let run: Span | null = null;
    let last = -2;
    keys.forEach((k, j) => {
      const b = t.index.get(k);
      // The base's record (the same object, decoded or not): its text is the base's.
      if (b !== undefined && recordIdentity(map, k) === recordIdentity(t.map, k)) {
        if (run !== null && b === last + 1) run.to = t.ends[b]!;
        else {
          if (j > 0) out.push(', ');
          out.push((run = { from: t.starts[b]!, to: t.ends[b]! }));
        }
        last = b;
        return;
      }
      run = null;
      if (j > 0) out.push(', ');
      out.push(recordText(k, map.get(k)!));
    });
    out.push('}');
    return out;
  }

  /**
   * The pieces of a copy of the base's table `t` from the keys written to it: the same pieces `tablePieces` finds by
   * comparing every record (runs of the base's records as spans, split where a record was replaced, removed or a key
   * added between them; each other record as its text), in the number of keys written.
   */
  private copyPieces(t: BaseTable, map: DictCopy): Piece[] {
    // Where the copy departs from the base, in the text's order: a base record replaced (its text) or removed (nothing)
    // at its place `at`, a key added (its text) before the base's record at `at` (the first greater key).
    const events: { readonly at: number; readonly key: string | null; readonly base: number | null }[] = [];
    for (const k of map.written) {
      const b = t.index.get(k);
      if (b === undefined) {
        if (map.has(k)) events.push({ at: lowerBound(t.keys, k), key: k, base: null });
      } else if (!map.has(k)) events.push({ at: b, key: null, base: b });
      else if (recordIdentity(map, k) !== recordIdentity(t.map, k)) events.push({ at: b, key: k, base: b });
    }
    // Added keys before the base's record at the same place, in key order.
    events.sort((x, y) => x.at - y.at || (x.base === null ? 0 : 1) - (y.base === null ? 0 : 1) || (x.base === null ? compareCodePoints(x.key!, y.key!) : 0));
    const out: Piece[] = ['{'];
    let first = true;
    const sep = (): void => {
      if (!first) out.push(', ');
      first = false;
    };
    // The base's records `from`..`to` (inclusive), unchanged: one span.
    const run = (from: number, to: number): void => {
      if (from > to) return;
      sep();
      out.push({ from: t.starts[from]!, to: t.ends[to]! });
    };
    let next = 0;
    for (const e of events) {
      run(next, e.at - 1);
      if (e.key !== null) {
        sep();
        out.push(recordText(e.key, map.get(e.key)!));
      }
      next = e.base === null ? e.at : e.base + 1;
    }
    run(next, t.keys.length - 1);
    out.push('}');
    return out;
  }

  hash(db: PydModel): string {
    if (db === this.base) return this.baseHash;
    const pieces: Piece[] = [];
    this.walk(db, (name, map) => this.tablePieces(this.byName.get(name)!, map), pieces as (string | Piece[])[]);
    const flat = (pieces as (string | Piece[])[]).flatMap((p) => (Array.isArray(p) ? p : [p]));
    // How far the DB's text is the base's: pieces that lie where the base has the same bytes.
    const text = this.text;
    let pos = 0;
    let i = 0;
    for (; i < flat.length; i++) {
      const p = flat[i]!;
      if (typeof p === 'string') {
        if (pos + p.length > text.length) break;
        let same = true;
        for (let c = 0; c < p.length && same; c++) same = text[pos + c] === p.charCodeAt(c);
        if (!same) break;
        pos += p.length;
      } else {
        if (p.from !== pos) break;
        pos = p.to;
      }
    }
    if (i === flat.length && pos === text.length) return this.baseHash;
    // The text from `pos` on, exactly: a span of the base by its place, any other text as itself (dumps are ASCII, so
    // \u0001 and \u0002 never occur in one).
    const parts: string[] = [String(pos)];
    for (let j = i; j < flat.length; j++) {
      const p = flat[j]!;
      parts.push(typeof p === 'string' ? `\u0001${p}` : `\u0002${p.from},${p.to}`);
    }
    const key = sha256Hex(parts.join(''));
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    let from = this.checkpoints[0]!;
    for (const c of this.checkpoints) {
      if (c.at <= pos) from = c;
      else break;
    }
    const s = sha256Stream();
    s.load(from.state);
    if (pos > from.at) s.update(text.subarray(from.at, pos));
    // Runs of text of the DB's own are joined, so the hasher is called once per span and once per run of own text.
    let own = '';
    for (let j = i; j < flat.length; j++) {
      const p = flat[j]!;
      if (typeof p === 'string') own += p;
      else {
        if (own !== '') s.update(own);
        own = '';
        s.update(text.subarray(p.from, p.to));
      }
    }
    if (own !== '') s.update(own);
    const hex = s.hex();
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    this.memo.set(key, hex);
    if (this.fresh.length < MEMO_LIMIT) this.fresh.push([key, hex]);
    return hex;
  }

  /** Hashes of DB states of this base an earlier process computed (`known-hashes.ts`), kept in the memo. */
  learn(entries: Iterable<readonly [string, string]>): void {
    for (const [key, hex] of entries) if (this.memo.size < MEMO_LIMIT) this.memo.set(key, hex);
  }

  /** The memo's entries computed here since the last call (for `learn` in a later process). */
  readonly takeKnown = (): [string, string][] => this.fresh.splice(0);
}

/** The hasher of a base DB (made once per base, or restored from a snapshot). */
export const hasherFor = (base: PydModel): Tau2DbHasher => Tau2DbHasher.of(base);
