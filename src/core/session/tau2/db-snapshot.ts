/**
 * A domain's τ² DBs, validated, and their hashers' texts as a JSON text and bytes beside it, and back: what a cache of
 * validated DBs between processes keeps (the CLI's, in the platform's cache folder). The hashers' texts (each base's
 * whole `json.dumps`, ~3.5 MB for airline) are bytes, not JSON strings: read back as they are, with no escaping to
 * undo and no copy. A copy-on-write domain's big tables (airline's reservations, users, flights; retail's) are kept
 * record by record, as one UTF-8 text after the hashers' texts (its sha256 in the JSON, checked as it is read), and
 * read back as `LazyDict`s: a record's models are made when a tool or the judge first reads it, so a process judging
 * a few simulations builds a few records, not 2,800. Pure: the caller stores both and decides when they fit (by the data files' content);
 * `tau2DbsFromSnapshot` throws `SnapshotError` on anything it did not make for this domain's classes, and the caller
 * then loads the files as before.
 */
import { PydModel, type ModelClass } from '../../py/pydantic';
import { decode, encode, schemaOf, SnapshotError, type LazyRecords, type SnapshotSchema } from '../../py/pydantic/snapshot';
import { sha256Stream } from '../../py/sha256';
import { Tau2DbHasher, type Tau2HasherSnapshot } from '../../env/tau2/db-hasher';
import type { Tau2Domain } from '../../model/domains/tau2/toolkit';

/** Bumped whenever what a snapshot holds, or how the core validates or prints a DB, changes. */
export const TAU2_DB_SNAPSHOT_FORMAT = 'tau-inspect/tau2-dbs/3';

interface Side {
  readonly db: unknown;
  readonly hasher: Tau2HasherSnapshot;
  /** Where the hasher's text lies in the bytes: from, to. */
  readonly text: readonly [number, number];
}

/** A snapshot: the JSON text and the bytes it points into. */
export interface Tau2DbSnapshot {
  readonly json: string;
  readonly bytes: Uint8Array;
}

interface Snapshot {
  readonly format: string;
  readonly domain: string;
  readonly signature: string;
  readonly where: string;
  readonly agent: Side;
  readonly user: Side | null;
  /** Where the records of lazily read tables lie in the bytes (UTF-8), and their sha256; null when none is. */
  readonly records: { readonly at: readonly [number, number]; readonly sha256: string } | null;
}

const bytesHash = (b: Uint8Array): string => {
  const h = sha256Stream();
  h.update(b);
  return h.hex();
};

const schemas = new WeakMap<Tau2Domain, SnapshotSchema>();
const schemaFor = (domain: Tau2Domain): SnapshotSchema => {
  let s = schemas.get(domain);
  if (s === undefined) schemas.set(domain, (s = schemaOf([domain.agent.db, ...(domain.user ? [domain.user.db] : [])])));
  return s;
};

/** What identifies a snapshot's code: its format and the domain's classes and fields (part of a cache's key). */
export const tau2DbSnapshotCode = (domain: Tau2Domain): string => `${TAU2_DB_SNAPSHOT_FORMAT}\n${domain.name}\n${schemaFor(domain).signature}`;

/** The DBs as a snapshot (their hashers made now if not yet: they are needed to judge anyway). */
export function tau2DbsSnapshot(domain: Tau2Domain, dbs: { readonly agent: PydModel; readonly user: PydModel | null; readonly where: string }): Tau2DbSnapshot {
  const schema = schemaFor(domain);
  const texts: Uint8Array[] = [];
  let at = 0;
  // Only where environments share the base's tables until a tool writes one (copy-on-write): elsewhere every record is copied anyway.
  const lazy: LazyRecords | undefined = domain.copyOnWrite ? { parts: [], length: 0 } : undefined;
  const side = (db: PydModel): Side => {
    const { meta, text } = Tau2DbHasher.of(db).snapshot();
    texts.push(text);
    at += text.length;
    return { db: encode(db, schema, lazy), hasher: meta, text: [at - text.length, at] };
  };
  const agent = side(dbs.agent);
  const user = dbs.user === null ? null : side(dbs.user);
  const recordBytes = lazy === undefined || lazy.parts.length === 0 ? null : new TextEncoder().encode(lazy.parts.join(''));
  const snap: Snapshot = {
    format: TAU2_DB_SNAPSHOT_FORMAT,
    domain: domain.name,
    signature: schema.signature,
    where: dbs.where,
    agent,
    user,
    records: recordBytes === null ? null : { at: [at, at + recordBytes.length], sha256: bytesHash(recordBytes) },
  };
  if (recordBytes !== null) texts.push(recordBytes);
  const bytes = new Uint8Array(texts.reduce((n, t) => n + t.length, 0));
  at = 0;
  for (const t of texts) {
    bytes.set(t, at);
    at += t.length;
  }
  return { json: JSON.stringify(snap), bytes };
}

/** The DBs a snapshot holds, each with its hasher restored (new objects, the hashers' texts views of `bytes`; all is checked as it is read). */
export function tau2DbsFromSnapshot(domain: Tau2Domain, { json, bytes }: Tau2DbSnapshot): { agent: PydModel; user: PydModel | null; where: string } {
  let snap: Snapshot;
  try {
    snap = JSON.parse(json) as Snapshot;
  } catch (e) {
    throw new SnapshotError(`not JSON (${(e as Error).message})`);
  }
  const schema = schemaFor(domain);
  if (typeof snap !== 'object' || snap === null || snap.format !== TAU2_DB_SNAPSHOT_FORMAT) throw new SnapshotError('another format');
  if (snap.domain !== domain.name || snap.signature !== schema.signature) throw new SnapshotError('made for other classes');
  if (typeof snap.where !== 'string' || (snap.user !== null && domain.user === null)) throw new SnapshotError('damaged');
  const range = (r: unknown): [number, number] | null => {
    const [from, to] = Array.isArray(r) ? (r as number[]) : [NaN, NaN];
    return Number.isInteger(from) && Number.isInteger(to) && 0 <= from! && from! <= to! && to! <= bytes.length ? [from!, to!] : null;
  };
  let records: string | undefined;
  if (snap.records !== null) {
    const at = range(snap.records?.at);
    if (at === null) throw new SnapshotError('damaged records');
    const b = bytes.subarray(...at);
    if (bytesHash(b) !== snap.records.sha256) throw new SnapshotError('the records’ text does not hash to its hash');
    records = new TextDecoder().decode(b);
  }
  const side = (s: Side, cls: ModelClass): PydModel => {
    const db = decode(s.db, schema, records);
    if (!(db instanceof PydModel && db.cls === cls)) throw new SnapshotError('a DB of another model');
    const at = range(s.text);
    if (at === null) throw new SnapshotError('damaged hasher');
    Tau2DbHasher.restore(db, s.hasher, bytes.subarray(...at));
    return db;
  };
  return { agent: side(snap.agent, domain.agent.db), user: snap.user === null ? null : side(snap.user, domain.user!.db), where: snap.where };
}
