import type { Db, Domain } from '../model/data/db';
import { writesOfActions, type ExecutedStep } from '../env/replay';
import type { GroundTruthStep } from '../env/reward';
import { overlaps, type WritePath } from '../env/write-log';
import type { Path } from './field-diff';

/** Where each step wrote on either side: `agent[i]` for replay step i, `reference[i]` for reference action i. */
export interface EpisodeWrites {
  readonly agent: readonly (readonly WritePath[])[];
  readonly reference: readonly (readonly WritePath[])[];
}

/** The writes of an episode's calls and its reference actions, each run again on the DB it ran on. */
export function episodeWrites(domain: Domain, initial: Db, steps: readonly ExecutedStep[], reference: readonly GroundTruthStep[]): EpisodeWrites {
  const before = (states: readonly { readonly state: Db }[]): Db[] => [initial, ...states.map((s) => s.state)];
  return {
    agent: writesOfActions(
      domain,
      before(steps),
      steps.map((s) => s.action),
    ),
    reference: writesOfActions(
      domain,
      before(reference),
      reference.map((s) => s.action),
    ),
  };
}

/**
 * The index of the last step whose call wrote the value of `table/key` at `path` — with a new
 * value or the one it already had, the field itself, a record or list holding it, or a part of
 * it; null when no step's call touched it (the value is the initial one, or absent throughout).
 * `writes[i]` is where step i wrote (`EpisodeWrites`).
 */
export function blameWrite(writes: readonly (readonly WritePath[])[], table: string, key: string, path: Path): number | null {
  const at: WritePath = [table, key, ...path];
  for (let i = writes.length - 1; i >= 0; i--) if (writes[i]!.some((w) => overlaps(w, at))) return i;
  return null;
}
