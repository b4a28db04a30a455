import type { Domain } from '../model/data/db';
import { diffRecords, type RecordDiff } from '../model/data/diff-records';
import type { DataVersion, RewardRule } from '../model/data/versions';
import { agentSteps, detectStrategy } from '../model/episode/actions';
import type { AgentStep, EpisodeRecord, Strategy } from '../model/episode/types';
import { computeReward, type GroundTruth, type RewardVerdict } from '../env/reward';
import { replayEpisode, type Replay } from '../env/replay';
import type { EvalCache } from './cache';
import { otherDomainProblem } from './detect/domain';

export const RULES: readonly RewardRule[] = ['db-and-outputs', 'outputs-only'];

export interface EpisodeEvaluation {
  readonly record: EpisodeRecord;
  readonly domain: Domain;
  readonly strategy: Strategy;
  readonly agentSteps: readonly AgentStep[];
  readonly replay: Replay;
  readonly groundTruth: GroundTruth;
  /** sha256 of the agent's final DB's text (computed when first read: a row's verdict needs only `sameDb`). */
  readonly agentHash: string;
  readonly gtHash: string;
  /** Whether the agent's final DB prints (so hashes) exactly like the reference replay's: τ-bench's r_actions. */
  readonly sameDb: boolean;
  /** The verdict under each rule; the file's rule picks which one applies. */
  readonly verdicts: Readonly<Record<RewardRule, RewardVerdict>>;
  readonly diff: readonly RecordDiff[];
  /** Recorded `reward_info.info.gt_data_hash`, when the file has one. */
  readonly recordedGtHash: string | null;
}

export type EpisodeOutcome =
  { readonly ok: true; readonly value: EpisodeEvaluation } | { readonly ok: false; readonly record: EpisodeRecord; readonly error: string };

export function recordedGtHash(record: EpisodeRecord): string | null {
  const info = record.recordedRewardInfo?.get('info');
  const h = info instanceof Map ? info.get('gt_data_hash') : undefined;
  return typeof h === 'string' ? h : null;
}

/** Replays one episode and judges it under every rule. Never throws for bad input. */
export function evaluateEpisode(
  record: EpisodeRecord,
  domain: Domain,
  version: DataVersion,
  cache: EvalCache,
  edit?: (steps: AgentStep[]) => AgentStep[],
): EpisodeOutcome {
  if (record.problem !== null || record.task === null) return { ok: false, record, error: record.problem ?? 'no task' };
  // An episode of the other domain's run (a file of two runs pasted together) is no episode of this domain's task with its id.
  const foreign = otherDomainProblem(record, domain);
  if (foreign !== null) return { ok: false, record, error: foreign };
  try {
    const strategy = detectStrategy(record.traj);
    const derived = agentSteps(record.traj, strategy);
    const steps = edit ? edit(derived) : derived;
    const replay = replayEpisode(domain, version.db, steps);
    const { gt, hash: gtHash } = cache.groundTruth(domain, version, record);
    // Python parity: calculate_reward's `data_hash == gt_data_hash` — the same text is the same sha256, and the texts are
    // compared where the two DBs depart from the initial one; the agent's hash itself is computed when something reads it
    // (a report line, the episode's screen), not for a row's verdict.
    const sameDb = cache.sameText(replay.finalState, gt.state, version.db);
    let agentHash: string | null = sameDb ? gtHash : null;
    const task = record.task;
    const verdicts = Object.fromEntries(RULES.map((rule) => [rule, computeReward(rule, task, sameDb, replay.steps)])) as Record<RewardRule, RewardVerdict>;
    const diff = sameDb ? [] : diffRecords(replay.finalState, gt.state);
    return {
      ok: true,
      value: {
        record,
        domain,
        strategy,
        agentSteps: steps,
        replay,
        groundTruth: gt,
        get agentHash(): string {
          return (agentHash ??= cache.hash(replay.finalState, version.db));
        },
        gtHash,
        sameDb,
        verdicts,
        diff,
        recordedGtHash: recordedGtHash(record),
      },
    };
  } catch (e) {
    return { ok: false, record, error: `internal error: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** τ-bench's reward: 0 when the episode never ended (the verdict is then hypothetical). */
/** What a verdict's final reward depends on (an `EpisodeEvaluation`, or the little kept of one). */
export interface RewardFacts {
  readonly replay: { readonly done: boolean };
  readonly verdicts: Readonly<Record<RewardRule, { readonly reward: number }>>;
}

export function finalReward(ev: RewardFacts, rule: RewardRule): number {
  return ev.replay.done ? ev.verdicts[rule].reward : 0;
}

/** Whether a recomputed reward equals the recorded one; null when the file records none. */
export const agreesWithRecorded = (recorded: number | null, reward: number | null): boolean | null =>
  recorded === null || reward === null ? null : recorded === reward;
