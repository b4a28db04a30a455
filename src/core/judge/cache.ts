import type { Db, Domain } from '../model/data/db';
import { DbHasher } from '../model/data/db-hash';
import type { DataVersion } from '../model/data/versions';
import type { EpisodeRecord } from '../model/episode/types';
import { groundTruthKey, replayGroundTruth, type GroundTruth } from '../env/reward';

/** Memoises DB hashes and reference replays across the episodes of a session. */
export class EvalCache {
  private readonly hashes = new WeakMap<Db, string>();
  private readonly hashers = new WeakMap<Db, DbHasher>();
  private readonly gts = new Map<string, { gt: GroundTruth; hash: string }>();

  /** The DB hash of `db`, a state derived from `base` (hashing resumes where they part). */
  hash(db: Db, base: Db = db): string {
    let h = this.hashes.get(db);
    if (h === undefined) {
      let hasher = this.hashers.get(base);
      if (!hasher) {
        hasher = new DbHasher(base);
        this.hashers.set(base, hasher);
      }
      h = hasher.hash(db);
      this.hashes.set(db, h);
    }
    return h;
  }

  groundTruth(domain: Domain, version: DataVersion, record: EpisodeRecord): { gt: GroundTruth; hash: string } {
    const task = record.task!;
    const key = `${version.commit}|${groundTruthKey(domain, task)}`;
    let hit = this.gts.get(key);
    if (!hit) {
      const gt = replayGroundTruth(domain, version.db, task.actions);
      hit = { gt, hash: this.hash(gt.state, version.db) };
      this.gts.set(key, hit);
    }
    return hit;
  }
}

