/**
 * Which run of a library folder a library judge takes next. The biggest first (the last to finish are small), except
 * that the first runs dealt are of different data where the folder has several (`group`: the benchmark and domain a
 * run's first bytes name): two judges starting on the same domain had one load its data and the other wait for it
 * (350 ms of the 12 shared τ-bench runs), where each can load a domain of its own meanwhile and share it after.
 * After that a judge (a lane) keeps to the data of its last run while runs of it are left, the biggest first, and
 * only then takes the biggest run left: what a judge works out per domain — the reference replays of every task and
 * their hashes, a version's DB and base hashes — is its own (the shared data carries what was worked out when it was
 * handed on), so two judges taking turns at both τ-bench domains of ../shared/runs each worked out both.
 */
import { guessDomainFromText } from '../../core/contract';
import type { DataKind } from './wire';

/** How much of a run's first file its data is guessed from. */
export const HEAD_BYTES = 64 << 10;

/** The data a run needs, guessed from its first bytes (a wrong guess costs time, never a row); null when they do not tell. */
export function dataGroupOf(head: string): { readonly kind: DataKind; readonly domain: string } | null {
  // A τ² results file names its domain near its top (`info.environment_info.domain_name`).
  const named = /"domain_name"\s*:\s*"([^"\\]{1,64})"/.exec(head);
  if (named) return { kind: 'tau2', domain: named[1]! };
  const domain = guessDomainFromText(head);
  return domain === null ? null : { kind: 'tau-bench', domain };
}

export interface PlannedRun {
  /** The run's place in the folder's list. */
  readonly index: number;
  readonly bytes: number;
  /** `<kind>|<domain>` of the data it needs, or null when not known. */
  readonly group: string | null;
}

export class JudgePlan {
  private readonly left: PlannedRun[];
  private dealt = 0;
  private readonly started = new Set<string>();
  /** The group of each lane's last run. */
  private readonly lanes = new Map<number, string | null>();

  constructor(
    runs: readonly PlannedRun[],
    /** How many judges take runs at once (the first this many are spread over the groups). */
    private readonly judges: number,
  ) {
    this.left = [...runs].sort((a, b) => b.bytes - a.bytes || a.index - b.index);
  }

  /** The next run for `lane` (one judge's turn after turn) to judge (its index), or null when none is left. */
  next(lane = 0): number | null {
    if (this.left.length === 0) return null;
    let at = 0;
    const mine = this.lanes.get(lane) ?? null;
    if (this.dealt < this.judges) {
      const fresh = this.left.findIndex((r) => r.group !== null && !this.started.has(r.group));
      if (fresh >= 0) at = fresh;
    } else if (mine !== null) {
      const own = this.left.findIndex((r) => r.group === mine);
      if (own >= 0) at = own;
    }
    const [run] = this.left.splice(at, 1);
    this.dealt++;
    if (run!.group !== null) this.started.add(run!.group);
    this.lanes.set(lane, run!.group);
    return run!.index;
  }
}
