import type { Db, Domain } from '../model/data/db';
import { DbHasher, type DbHasherSnapshot } from '../model/data/db-hash';
import type { DataVersion } from '../model/data/versions';
import type { EpisodeRecord } from '../model/episode/types';
import { groundTruthKey, replayGroundTruth, type GroundTruth } from '../env/reward';

/**
 * What a session worked out about one initial DB, as plain structured-cloneable data: the
 * hasher's state and the hash of each task's reference replay (by `groundTruthKey`). Valid
 * for any DB with the same content; `DbHasher.restore` checks that it fits.
 */
export interface DbWorkSnapshot {
  readonly hasher: DbHasherSnapshot;
  readonly gtHashes: ReadonlyMap<string, string>;
}

/** Memoises DB hashes and reference replays across the episodes of a session. */
export class EvalCache {
  private readonly hashes = new WeakMap<Db, string>();
  private readonly hashers = new WeakMap<Db, DbHasher>();
  private readonly gts = new Map<string, { gt: GroundTruth; hash: string }>();
  /** Reference-replay hashes per initial DB, computed here or adopted from a snapshot. */
  private readonly gtHashes = new WeakMap<Db, Map<string, string>>();

  private hasher(base: Db): DbHasher {
    let hasher = this.hashers.get(base);
    if (!hasher) {
      hasher = new DbHasher(base);
      this.hashers.set(base, hasher);
    }
    return hasher;
  }

  /** The DB hash of `db`, a state derived from `base` (hashing resumes where they part). */
  hash(db: Db, base: Db = db): string {
    let h = this.hashes.get(db);
    if (h === undefined) {
      h = this.hasher(base).hash(db);
      this.hashes.set(db, h);
    }
    return h;
  }

  /** Whether `a` and `b`, states derived from `base`, print (and so hash) alike, found without hashing them (`DbHasher.sameText`). */
  sameText(a: Db, b: Db, base: Db): boolean {
    if (a === b) return true;
    const ha = this.hashes.get(a);
    const hb = this.hashes.get(b);
    if (ha !== undefined && hb !== undefined) return ha === hb;
    return this.hasher(base).sameText(a, b);
  }

  private knownGt(base: Db): Map<string, string> {
    let m = this.gtHashes.get(base);
    if (!m) {
      m = new Map();
      this.gtHashes.set(base, m);
    }
    return m;
  }

  groundTruth(domain: Domain, version: DataVersion, record: EpisodeRecord): { gt: GroundTruth; hash: string } {
    const task = record.task!;
    const gtKey = groundTruthKey(domain, task);
    const key = `${version.commit}|${gtKey}`;
    let hit = this.gts.get(key);
    if (!hit) {
      const base = version.db;
      const gt = replayGroundTruth(domain, base, task.actions);
      const known = this.knownGt(base);
      let hash = known.get(gtKey);
      if (hash === undefined) {
        hash = this.hash(gt.state, base);
        known.set(gtKey, hash);
      } else this.hashes.set(gt.state, hash);
      hit = { gt, hash };
      this.gts.set(key, hit);
    }
    return hit;
  }

  /** The hash of a task's reference replay; without replaying when a snapshot already knows it. */
  groundTruthHash(domain: Domain, version: DataVersion, record: EpisodeRecord): string {
    const known = this.knownGt(version.db).get(groundTruthKey(domain, record.task!));
    return known ?? this.groundTruth(domain, version, record).hash;
  }

  /** How many reference-replay hashes are known for `base` (to tell whether a snapshot grew). */
  groundTruthCount(base: Db): number {
    return this.gtHashes.get(base)?.size ?? 0;
  }

  /** The reference-replay hashes known for `base`, a copy (without the hasher's state `snapshot` lays out). */
  groundTruthHashes(base: Db): Map<string, string> {
    return new Map(this.knownGt(base));
  }

  /** This cache's work on `base` (hashing the base first if it never was). */
  snapshot(base: Db): DbWorkSnapshot {
    return { hasher: this.hasher(base).snapshot(), gtHashes: this.groundTruthHashes(base) };
  }

  /** Takes over a snapshot's work for `base`; false (and nothing adopted) when it does not fit. */
  adopt(base: Db, snap: DbWorkSnapshot): boolean {
    const hasher = DbHasher.restore(base, snap.hasher);
    if (!hasher) return false;
    this.hashers.set(base, hasher);
    this.hashes.set(base, hasher.initialHash);
    const known = this.knownGt(base);
    for (const [k, h] of snap.gtHashes) if (!known.has(k)) known.set(k, h);
    return true;
  }
}
