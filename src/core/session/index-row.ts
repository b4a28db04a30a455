/** One row of `tau-inspect index`: an episode (τ-bench) or a simulation (τ²), the columns of the table. */
import type { Tau2Run } from '../model/episode/tau2/types';
import { TAU2_PINNED_COMMIT } from '../model/data/tau2/data';
import { tau2NumTrials } from '../view/tau2/summary';
import { episodeReport, type EpisodeReport } from '../view/report-json';
import type { InspectSession } from './session';
import { diffRecords } from '../model/data/diff-records';
import type { Db, Domain } from '../model/data/db';
import type { Task } from '../model/episode/types';
import { replayGroundTruth, type GroundTruth } from '../env/reward';
import { pyLower } from '../py/lower';

export type Benchmark = 'tau-bench' | 'tau2';

export interface IndexRow {
  /** The path as found by the walk. */
  readonly file: string;
  /** Position in the file (0-based). */
  readonly index: number;
  readonly benchmark: Benchmark;
  readonly domain: string | null;
  /** A string for both benchmarks (τ-bench's integer ids written in decimal), so one column holds both. */
  readonly task_id: string | null;
  readonly trial: number | null;
  readonly recorded_reward: number | null;
  /** Recomputed; null when the episode cannot be evaluated (`error`). */
  readonly reward: number | null;
  readonly matches_recorded_reward: boolean | null;
  readonly content_hash: string;
  readonly data_version: string | null;
  readonly rule: string | null;
  readonly model: string | null;
  readonly user_model: string | null;
  /** Components that failed: `db`, `outputs` (τ-bench); τ²'s reward-basis names whose part is below 1 (`DB`, `ACTION`, …). */
  readonly failed_components: readonly string[];
  /** τ-bench: `stop`, `terminate_tool`, `not_done` (or `error`); τ²: the recorded termination reason. */
  readonly termination: string | null;
  /** Kinds of the findings (not counted by the benchmark), each once, in order. */
  readonly finding_kinds: readonly string[];
  /** τ-bench: actions in the trajectory; τ²: messages. */
  readonly steps: number | null;
  readonly error: string | null;
  /**
   * τ²: the run's `info.num_trials` (τ²'s pass^k goes up to it, or to the fewest trials any task has if fewer; each
   * task's pass^k is over its own trials), null when the file records none; τ-bench: null (its pass^k counts the trials).
   */
  readonly num_trials: number | null;
  /** What the run spent, as the file records it; null where it records none ("not recorded", never 0). τ²: the simulation's. */
  readonly agent_cost: number | null;
  /** τ²: the simulation's `user_cost`; τ-bench: `info.user_cost`. */
  readonly user_cost: number | null;
  /** τ²: the simulation's `duration` (seconds); τ-bench records none. */
  readonly duration: number | null;
  /** τ²: the sum of `usage.prompt_tokens` / `usage.completion_tokens` over the messages that record usage; null when none does. */
  readonly prompt_tokens: number | null;
  readonly completion_tokens: number | null;
}

/** The spend columns of a row. */
export type Spend = Pick<IndexRow, 'agent_cost' | 'user_cost' | 'duration' | 'prompt_tokens' | 'completion_tokens'>;
export const NO_SPEND: Spend = { agent_cost: null, user_cost: null, duration: null, prompt_tokens: null, completion_tokens: null };

/** A recorded number (a float, or an int: Python's bigint) as a float; null for anything else or a value that is not finite. */
function recordedNumber(v: unknown): number | null {
  const n = typeof v === 'bigint' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** A dict's (a Map's) number at `key`. */
const numberAt = (d: unknown, key: string): number | null => (d instanceof Map ? recordedNumber(d.get(key)) : null);

/** What a τ² simulation records it spent: its costs and duration, and the tokens its messages' `usage` add up to. */
export function tau2Spend(sim: { readonly raw: ReadonlyMap<string, unknown> }): Spend {
  let prompt: number | null = null;
  let completion: number | null = null;
  const messages = sim.raw.get('messages');
  for (const m of Array.isArray(messages) ? (messages as unknown[]) : []) {
    const usage = m instanceof Map ? m.get('usage') : undefined;
    const p = numberAt(usage, 'prompt_tokens');
    const c = numberAt(usage, 'completion_tokens');
    if (p !== null) prompt = (prompt ?? 0) + p;
    if (c !== null) completion = (completion ?? 0) + c;
  }
  return {
    agent_cost: recordedNumber(sim.raw.get('agent_cost')),
    user_cost: recordedNumber(sim.raw.get('user_cost')),
    duration: recordedNumber(sim.raw.get('duration')),
    prompt_tokens: prompt,
    completion_tokens: completion,
  };
}

/** What a τ-bench episode records it spent: `info.user_cost` only (τ-bench's results file keeps no agent cost or time). */
export function tauBenchSpend(raw: unknown): Spend {
  const info = raw instanceof Map ? raw.get('info') : undefined;
  return { ...NO_SPEND, user_cost: numberAt(info, 'user_cost') };
}

/** The columns in order with their DuckDB types (Parquet schema and `read_json` columns alike). */
export const INDEX_COLUMNS: readonly (readonly [keyof IndexRow, string])[] = [
  ['file', 'VARCHAR'],
  ['index', 'INTEGER'],
  ['benchmark', 'VARCHAR'],
  ['domain', 'VARCHAR'],
  ['task_id', 'VARCHAR'],
  ['trial', 'INTEGER'],
  ['recorded_reward', 'DOUBLE'],
  ['reward', 'DOUBLE'],
  ['matches_recorded_reward', 'BOOLEAN'],
  ['content_hash', 'VARCHAR'],
  ['data_version', 'VARCHAR'],
  ['rule', 'VARCHAR'],
  ['model', 'VARCHAR'],
  ['user_model', 'VARCHAR'],
  ['failed_components', 'VARCHAR[]'],
  ['termination', 'VARCHAR'],
  ['finding_kinds', 'VARCHAR[]'],
  ['steps', 'INTEGER'],
  ['error', 'VARCHAR'],
  ['num_trials', 'INTEGER'],
  ['agent_cost', 'DOUBLE'],
  ['user_cost', 'DOUBLE'],
  ['duration', 'DOUBLE'],
  ['prompt_tokens', 'DOUBLE'],
  ['completion_tokens', 'DOUBLE'],
];

/** What a file's rows share. */
export interface FileFacts {
  readonly file: string;
  readonly content_hash: string;
}

const once = (kinds: Iterable<string>): string[] => [...new Set(kinds)];

/** A τ-bench episode's row from its report (`evaluate --json`'s object). */
export function tauBenchRow(f: FileFacts, r: EpisodeReport, spend: Spend = NO_SPEND): IndexRow {
  const failed: string[] = [];
  if (r.error === undefined) {
    if (r.r_actions === false) failed.push('db');
    if (r.outputs && Object.values(r.outputs).some((found) => !found)) failed.push('outputs');
  }
  return {
    file: f.file,
    index: r.index,
    benchmark: 'tau-bench',
    domain: r.domain ?? null,
    task_id: r.task_id === null ? null : String(r.task_id),
    trial: r.trial,
    recorded_reward: r.recorded_reward,
    reward: r.error === undefined ? (r.reward ?? null) : null,
    matches_recorded_reward: r.matches_recorded_reward ?? null,
    content_hash: f.content_hash,
    data_version: r.data_commit ?? null,
    rule: r.rule ?? null,
    model: null,
    user_model: null,
    failed_components: failed,
    termination: r.error !== undefined ? 'error' : r.done ? (r.done_by ?? 'done') : 'not_done',
    finding_kinds: once((r.findings ?? []).map((x) => x.kind)),
    steps: r.actions_in_traj ?? null,
    error: r.error ?? null,
    num_trials: null,
    ...spend,
  };
}

/** What a τ² simulation's row needs of its report. */
export interface Tau2RowReport {
  readonly index: number;
  readonly task_id: string;
  readonly trial: unknown;
  readonly termination_reason: string;
  readonly reward: number;
  readonly recorded_reward: number | null;
  readonly matches_recorded_reward: boolean | null;
  readonly reward_breakdown: Record<string, number> | null;
  readonly error: string | null;
  readonly findings: readonly { readonly kind: string }[];
}

/** A τ² simulation's row. */
export function tau2Row(
  f: FileFacts & { domain: string; data_version: string; model: string | null; user_model: string | null; num_trials: number | null },
  r: Tau2RowReport,
  messages: number,
  spend: Spend = NO_SPEND,
): IndexRow {
  const breakdown = r.reward_breakdown ?? {};
  return {
    file: f.file,
    index: r.index,
    benchmark: 'tau2',
    domain: f.domain,
    task_id: r.task_id,
    trial: typeof r.trial === 'number' && Number.isInteger(r.trial) ? r.trial : null,
    recorded_reward: r.recorded_reward,
    reward: r.error === null ? r.reward : null,
    matches_recorded_reward: r.matches_recorded_reward,
    content_hash: f.content_hash,
    data_version: f.data_version,
    rule: 'tau2-v1.0.1-all',
    model: f.model,
    user_model: f.user_model,
    failed_components: Object.keys(breakdown).filter((k) => breakdown[k]! < 1),
    termination: r.termination_reason,
    finding_kinds: once(r.findings.map((x) => x.kind)),
    steps: messages,
    error: r.error,
    num_trials: f.num_trials,
    ...spend,
  };
}

/** Every simulation's row of a τ² run judged by `report` (the session's), with the models its info records. */
export function tau2RunRows(run: Tau2Run, facts: FileFacts, report: (index: number) => Tau2RowReport): IndexRow[] {
  const llm = (key: string): string | null => {
    const v = run.info.get(key);
    const name = v instanceof Map ? v.get('llm') : undefined;
    return typeof name === 'string' ? name : null;
  };
  const shared = {
    ...facts,
    domain: run.domain,
    data_version: TAU2_PINNED_COMMIT,
    model: llm('agent_info'),
    user_model: llm('user_info'),
    num_trials: tau2NumTrials(run),
  };
  // A full-duplex simulation's steps are its ticks.
  return run.simulations.map((sim, i) => tau2Row(shared, report(i), sim.fullDuplex ? (sim.ticks?.length ?? 0) : sim.messages.length, tau2Spend(sim)));
}

/**
 * Every episode's row of a τ-bench run judged by `session` (its data in use), with what each records it spent and
 * the task audit's gold findings of its task (`tauBenchGoldKinds`, from the reference replay the episode was judged
 * against). Judged as `evaluateAll` judges (every recorded hash weighed first, the rule settled after, the rows made
 * again if that changed it), each row made from the episode's report as it is judged (`episodeReport`: what a row never
 * reads of it — the steps' observations, the alignment, the agent's hash — is worked out only when read).
 */
export function tauBenchRunRows(session: InspectSession, facts: FileFacts): IndexRow[] {
  session.settleData();
  const gold = new WeakMap<GroundTruth, Map<string, readonly string[]>>();
  const all = (): IndexRow[] => {
    const { rule } = session.detection();
    const version = session.dataVersion!;
    return session.records.map((record, i) => {
      const outcome = session.evaluation(i);
      const row = tauBenchRow(facts, episodeReport(outcome, session.domain, version, rule, session.fileFindings(i)), tauBenchSpend(record.raw));
      const task = record.task;
      if (!outcome.ok || !task || row.error !== null) return row;
      const gt = outcome.value.groundTruth;
      let byOutputs = gold.get(gt);
      if (byOutputs === undefined) gold.set(gt, (byOutputs = new Map()));
      const key = task.outputs.join('\u0000');
      let kinds = byOutputs.get(key);
      if (kinds === undefined) byOutputs.set(key, (kinds = goldKindsOf(gt, version.db, task)));
      return kinds.length === 0 ? row : { ...row, finding_kinds: [...new Set([...row.finding_kinds, ...kinds])] };
    });
  };
  const rows = all();
  return session.finish() ? all() : rows;
}

/**
 * The task audit's gold findings of a τ-bench task, from its reference actions replayed as τ-bench replays them
 * (`Env.calculate_reward`): an action that raises (τ-bench answers "Error: …" and goes on: the reference DB lacks its
 * effect), a reference that leaves the DB as it started, an output that no observation of the reference replay holds
 * (matched as τ-bench matches outputs: lowercased, commas dropped from the text).
 */
export function tauBenchGoldKinds(domain: Domain, initial: Db, task: Task): string[] {
  return goldKindsOf(replayGroundTruth(domain, initial, task.actions), initial, task);
}

/** `tauBenchGoldKinds` from the task's reference replay `gt` (on `initial`). */
function goldKindsOf(gt: GroundTruth, initial: Db, task: Task): string[] {
  const out: string[] = [];
  if (gt.steps.some((s) => !s.skipped && s.observation !== null && /^(Error:|Unknown action )/.test(s.observation))) out.push('gold-action-raises');
  if (diffRecords(gt.state, initial).length === 0) out.push('no-op-reference');
  const seen = gt.steps.flatMap((s) => (s.observation === null ? [] : [pyLower(s.observation).replaceAll(',', '')]));
  if (task.outputs.some((o) => !seen.some((h) => h.includes(pyLower(o))))) out.push('gold-info-unseen');
  return out;
}
