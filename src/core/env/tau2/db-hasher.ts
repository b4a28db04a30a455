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

type Token = string | Uint8Array;

// The dumps are ASCII (ensure_ascii), so a byte per character.
function asciiBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

const sortedJson = (v: TValue): string => pyJsonDumps(modelDump(v), { sortKeys: true });

/** Each base record's token (`"key": {...}`), by identity. */
const recordTokens = new WeakMap<PydModel, Uint8Array>();

function recordToken(key: string, rec: TValue, isBase: boolean): Token {
  if (!(rec instanceof PydModel) || !isBase) return `${dumpsStr(key)}: ${sortedJson(rec)}`;
  let t = recordTokens.get(rec);
  if (t === undefined) recordTokens.set(rec, (t = asciiBytes(`${dumpsStr(key)}: ${sortedJson(rec)}`)));
  return t;
}

const CHECKPOINT_EVERY = 64 * 1024;
/** DB states remembered per base (two short strings each). */
const MEMO_LIMIT = 20_000;

export class Tau2DbHasher {
  private readonly tokens: Token[];
  /** Midstates: before token `at`. */
  private readonly checkpoints: { readonly at: number; readonly state: unknown }[] = [];
  private readonly baseHash: string;
  private readonly sortedKeys = new Map<string, string[]>();
  /** Each base record token's position (tokens are told apart by identity). */
  private readonly positions = new Map<Uint8Array, number>();
  /**
   * Hashes already computed, by a digest of how the DB's text departs from the base's (a DB state
   * that recurs — the gold state a passing simulation reaches, another trial's — is not rehashed).
   */
  private readonly memo = new Map<string, string>();

  constructor(private readonly base: PydModel) {
    this.tokens = this.tokensOf(base);
    this.tokens.forEach((t, i) => typeof t !== 'string' && this.positions.set(t, i));
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
  }

  private tokensOf(db: PydModel): Token[] {
    const out: Token[] = [];
    const names = [...db.fields.keys()].sort(compareCodePoints);
    names.forEach((name, i) => {
      const v = db.fields.get(name)!;
      const baseTable = this.base.fields.get(name);
      out.push(`${i > 0 ? ', ' : '{'}${dumpsStr(name)}: `);
      if (!(v instanceof Map) || !(baseTable instanceof Map)) {
        out.push(sortedJson(v));
        return;
      }
      out.push('{');
      let keys = this.sortedKeys.get(name);
      const sameKeys = keys !== undefined && keys.length === v.size && keys.every((k) => v.has(k));
      if (!sameKeys) {
        keys = [...v.keys()].sort(compareCodePoints);
        if (db === this.base) this.sortedKeys.set(name, keys);
      }
      keys!.forEach((k, j) => {
        if (j > 0) out.push(', ');
        const rec = v.get(k)!;
        out.push(recordToken(k, rec, baseTable.get(k) === rec));
      });
      out.push('}');
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
    // The text from `d` on, exactly: a base record by its position, any other token by its text (dumps are ASCII, so \u0001 and \u0002 never occur in one).
    const parts: string[] = [String(d)];
    for (let i = d; i < tokens.length; i++) {
      const t = tokens[i]!;
      parts.push(typeof t === 'string' ? `\u0001${t}` : `\u0002${this.positions.get(t) ?? `?${i}`}`);
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
    for (let i = from.at; i < tokens.length; i++) s.update(tokens[i]!);
    const hex = s.hex();
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    this.memo.set(key, hex);
    return hex;
  }
}

const hashers = new WeakMap<PydModel, Tau2DbHasher>();

/** The hasher of a base DB (made once per base). */
export function hasherFor(base: PydModel): Tau2DbHasher {
  let h = hashers.get(base);
  if (h === undefined) hashers.set(base, (h = new Tau2DbHasher(base)));
  return h;
}
