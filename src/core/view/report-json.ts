import type { Domain } from '../model/data/db';
import type { DataVersion } from '../model/data/versions';
import type { RewardRule } from '../model/data/versions';
import { alignActions, type AlignmentMatch } from './alignment';
import { findings, rewardsByRule, type Finding, type FindingKind } from './findings';
import { agreesWithRecorded, finalReward, type EpisodeEvaluation, type EpisodeOutcome } from '../judge/evaluate';

/** One episode's verdict as plain JSON (the CLI's `--json` line). */
export interface EpisodeReport {
  index: number;
  task_id: number | null;
  trial: number | null;
  recorded_reward: number | null;
  /** A recorded reward that is not a finite number, as written (`NaN (not a number)`); `recorded_reward` is then null. */
  recorded_reward_text?: string;
  domain?: Domain;
  strategy?: string;
  data_commit?: string;
  rule?: RewardRule;
  done?: boolean;
  done_by?: 'stop' | 'terminate_tool' | null;
  reward?: number;
  hypothetical_reward_if_done?: number;
  agent_hash?: string;
  gt_hash?: string;
  r_actions?: boolean;
  outputs?: Record<string, boolean> | null;
  diff_records?: string[];
  steps?: { action: string; observation: string }[];
  actions_executed?: number;
  actions_in_traj?: number;
  recorded_gt_hash?: string | null;
  /** False only when the file records a gt_data_hash that differs. */
  matches_recorded_gt_hash?: boolean;
  matches_recorded_reward?: boolean | null;
  crash?: string;
  error?: string;
  /** Not counted by τ-bench: procedure findings and the evaluator's blind spots. */
  findings?: { kind: FindingKind; step: number | null; text: string }[];
  alignment?: {
    pairs: { gold: number | null; step: number | null; match: AlignmentMatch; write: boolean }[];
    first_divergent_write: { gold: number | null; step: number | null } | null;
  };
  /** τ-bench's reward under each of its two rules. */
  rules?: Record<RewardRule, number>;
}

/** The report's `alignment`: the agent's calls lined up with the reference actions. */
function alignmentOf(
  ev: EpisodeEvaluation,
  domain: Domain,
  version: DataVersion,
  gold: Parameters<typeof alignActions>[3],
): NonNullable<EpisodeReport['alignment']> {
  const alignment = alignActions(domain, version.db, ev.replay.steps, gold, ev.groundTruth, ev.diff);
  return {
    pairs: alignment.pairs.map((p) => ({ gold: p.gold, step: p.step, match: p.match, write: p.write })),
    first_divergent_write: alignment.firstDivergentWrite,
  };
}

/** `fileFindings`: what the file's other episodes show about this one (see `InspectSession`), after its own findings. */
export function episodeReport(
  outcome: EpisodeOutcome,
  domain: Domain,
  version: DataVersion,
  rule: RewardRule,
  fileFindings: readonly Finding[] = [],
): EpisodeReport {
  const record = outcome.ok ? outcome.value.record : outcome.record;
  const base: EpisodeReport = { index: record.index, task_id: record.taskId, trial: record.trial, recorded_reward: record.recordedReward };
  if (record.recordedRewardText !== undefined) base.recorded_reward_text = record.recordedRewardText;
  if (!outcome.ok) return { ...base, error: outcome.error };
  const ev = outcome.value;
  const verdict = ev.verdicts[rule];
  const reward = finalReward(ev, rule);
  const outputs = verdict.outputs === null ? null : Object.fromEntries(verdict.outputs.checks.map((c) => [c.output, c.found]));
  const report: EpisodeReport = {
    ...base,
    domain,
    strategy: ev.strategy,
    data_commit: version.commit,
    rule,
    done: ev.replay.done,
    done_by: ev.replay.doneBy,
    reward,
    agent_hash: '',
    gt_hash: ev.gtHash,
    r_actions: verdict.rActions,
    outputs,
    diff_records: ev.diff.map((d) => `${d.table}/${d.key}`),
    steps: [],
    actions_executed: ev.replay.steps.length,
    actions_in_traj: ev.agentSteps.length,
    recorded_gt_hash: ev.recordedGtHash,
    matches_recorded_gt_hash: ev.recordedGtHash === null || ev.recordedGtHash === ev.gtHash,
    matches_recorded_reward: agreesWithRecorded(record.recordedReward, reward),
  };
  // The agent's hash is computed when read (a printed line, a saved report): an index row or a library row never reads
  // it. (Redefined in place, so the key keeps its place in the printed line.)
  Object.defineProperty(report, 'agent_hash', { get: () => ev.agentHash, enumerable: true, configurable: true });
  // The steps too, once: a tool that only reads runs when its observation is read (`replayEpisode`), which a row never does.
  let steps: EpisodeReport['steps'];
  Object.defineProperty(report, 'steps', {
    get: () => (steps ??= ev.replay.steps.map((s) => ({ action: s.action.name, observation: s.observation }))),
    enumerable: true,
    configurable: true,
  });
  report.findings = [...findings(ev, version, rule), ...fileFindings].map((f) => ({ kind: f.kind, step: f.step, text: f.text }));
  // The alignment too is computed when read (a printed line, a saved report), once: an index row or a library row never
  // reads it (alignActions was ~6 % of a library judge's CPU). Defined here, so the key keeps its place after the findings.
  let alignment: EpisodeReport['alignment'];
  Object.defineProperty(report, 'alignment', {
    get: () => (alignment ??= alignmentOf(ev, domain, version, record.task?.actions ?? [])),
    enumerable: true,
    configurable: true,
  });
  report.rules = rewardsByRule(ev);
  if (!ev.replay.done) report.hypothetical_reward_if_done = verdict.reward;
  const crash = ev.replay.crash?.reason ?? verdict.outputs?.crash;
  if (crash) report.crash = crash;
  return report;
}
