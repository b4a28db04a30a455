/**
 * One simulation's verdict as plain JSON (the CLI's `evaluate --json` line): the same field names
 * and meaning as τ²'s own evaluation records, plus what τ² does not count (`findings`).
 */
import { modelDump, PYDANTIC_URL_VERSION, type TValue } from '../../py/pydantic';
import { toPlain, type PyValue } from '../../py/value';
import { recordedRewardOf } from '../../model/episode/episode-record';
import type { Tau2Evaluation } from '../../judge/tau2/evaluate';
import { tau2Findings, type Tau2Finding } from './findings';

const plain = (v: TValue): unknown => toPlain(modelDump(v) as PyValue);
const URL_VERSION = /errors\.pydantic\.dev\/\d+\.\d+\//g;
/** Tool outputs compared with the recorded ones up to the pydantic version in help URLs. */
export const maskPydanticUrl = (s: string): string => s.replace(URL_VERSION, `errors.pydantic.dev/${PYDANTIC_URL_VERSION}/`);

/** What the output of a call whose answer quotes τ²'s docstrings is (ReplayedCall.docstring). */
export const DOCSTRING_OUTPUT = {
  recorded:
    'its answer quotes τ²’s docstrings of its tools, which tau-inspect does not carry: the replayed answer agrees with the recorded one everywhere else, so the recorded answer stands',
  differs: 'its answer quotes τ²’s docstrings of its tools, which tau-inspect does not carry, and the rest of it differs from the recorded answer',
} as const;

/** Why a retrieval call has no replayed output. */
export const RETRIEVAL_UNAVAILABLE =
  'a retrieval call: never replayed (it changes no state and needs the knowledge-base index τ² builds at run time); its recorded output stands';

export interface Tau2Report {
  readonly index: number;
  readonly simulation_id: string;
  readonly task_id: string;
  readonly trial: unknown;
  readonly termination_reason: string;
  readonly premature: boolean;
  readonly reward: number;
  readonly recorded_reward: number | null;
  /** A recorded reward that is not a finite number, as written (`NaN (not a number)`); `recorded_reward` is then null. */
  readonly recorded_reward_text?: string;
  readonly matches_recorded_reward: boolean | null;
  readonly reward_basis: readonly string[] | null;
  readonly reward_breakdown: Record<string, number> | null;
  readonly db_match: boolean | null;
  readonly db_reward: number | null;
  readonly db_hash: { gold_agent: string | null; predicted_agent: string | null; gold_user: string | null; predicted_user: string | null } | null;
  readonly initial_db_hash: { agent: string | null; user: string | null };
  readonly db_hash_nondeterministic: boolean;
  readonly env_assertions: readonly { env_assertion: unknown; met: boolean; reward: number }[] | null;
  readonly action_checks: readonly { action: unknown; action_match: boolean; action_reward: number; tool_type: string | null }[] | null;
  readonly communicate_checks: readonly { info: string; met: boolean; justification: string }[] | null;
  readonly nl_assertions: readonly { nl_assertion: string; met: boolean | null; justification: string | null; recorded: true }[] | null;
  readonly tool_calls: readonly {
    index: number;
    message_index: number;
    id: string;
    name: string;
    requestor: string;
    arguments: unknown;
    known_tool: boolean;
    /** null for an unknown tool (τ² cannot say). */
    mutating: boolean | null;
    output: string | null;
    /** null for a retrieval call (never replayed). */
    error: boolean | null;
    /** Why no output was replayed (a retrieval call): its recorded output stands. */
    output_unavailable?: string;
    /** The answer quotes τ²'s docstrings (DOCSTRING_OUTPUT): how much of it was replayed. */
    output_quotes_docstring?: 'recorded' | 'differs';
    evaluator_replayed: boolean;
    matches_recorded: boolean | null;
    /** A full-duplex (voice) simulation: the tick the call was made in. */
    tick_id?: number;
  }[];
  readonly error: string | null;
  readonly note: string | null;
  /** The verdict stands, but τ² refuses this file for a field the verdict does not read: `<field>: <pydantic's message>`; null when τ² reads it. */
  readonly tau2_would_refuse: string | null;
  /** Where `tau2 evaluate-trajs` v1.0.1 would give another verdict (judged.ts): its reward (null: none, `error`) and the rules that differ. */
  readonly evaluate_trajs?: { readonly reward: number | null; readonly error: string | null; readonly rules: readonly string[] };
  readonly findings: readonly Tau2Finding[];
}

export function tau2Report(e: Tau2Evaluation): Tau2Report {
  const s = e.simulation;
  const { recordedReward, recordedRewardText } = recordedRewardOf(
    s.rewardInfo?.get('reward') as PyValue | undefined,
  ); /* parsed from JSON: no model, enum or date */
  return {
    index: s.index,
    simulation_id: s.id,
    task_id: s.taskId,
    trial: plain(s.trial),
    termination_reason: s.terminationReason,
    premature: e.premature,
    reward: e.reward,
    recorded_reward: recordedReward,
    ...(recordedRewardText !== undefined && { recorded_reward_text: recordedRewardText }),
    // A simulation that cannot be judged has no recomputed reward to hold against the recorded one.
    matches_recorded_reward: recordedReward === null || e.error !== null ? null : recordedReward === e.reward,
    reward_basis: e.rewardBasis,
    reward_breakdown: e.rewardBreakdown && Object.fromEntries(e.rewardBreakdown),
    db_match: e.dbMatch,
    db_reward: e.dbReward,
    db_hash: e.dbHash && {
      gold_agent: e.dbHash.goldAgent,
      predicted_agent: e.dbHash.predictedAgent,
      gold_user: e.dbHash.goldUser,
      predicted_user: e.dbHash.predictedUser,
    },
    initial_db_hash: e.initialDbHash,
    db_hash_nondeterministic: e.dbHashNondeterministic,
    env_assertions: e.envAssertions && e.envAssertions.map((c) => ({ env_assertion: plain(c.assertion.raw), met: c.met, reward: c.reward })),
    action_checks:
      e.actionChecks &&
      e.actionChecks.map((c) => ({ action: plain(c.action.raw), action_match: c.actionMatch, action_reward: c.actionReward, tool_type: c.toolType })),
    communicate_checks: e.communicateChecks && e.communicateChecks.map((c) => ({ info: c.info, met: c.met, justification: c.justification })),
    nl_assertions:
      e.nlAssertions && e.nlAssertions.map((c) => ({ nl_assertion: c.assertion, met: c.met, justification: c.justification, recorded: true as const })),
    tool_calls: e.toolCalls.map((c) => ({
      index: c.index,
      message_index: c.messageIndex,
      id: c.id,
      name: c.name,
      requestor: c.requestor,
      arguments: plain(c.arguments),
      known_tool: c.knownTool,
      mutating: c.knownTool ? c.mutating : null,
      output: c.output,
      error: c.retrieval ? null : c.error,
      ...(c.retrieval && { output_unavailable: RETRIEVAL_UNAVAILABLE }),
      ...(c.docstring && { output_quotes_docstring: c.docstring }),
      evaluator_replayed: c.evaluatorReplayed,
      matches_recorded: c.output === null || c.recordedOutput === null ? null : maskPydanticUrl(c.output) === maskPydanticUrl(c.recordedOutput),
      ...(c.tickId !== undefined && { tick_id: c.tickId }),
    })),
    error: e.error,
    note: e.note,
    tau2_would_refuse: e.error === null ? e.wouldRefuse : null,
    ...(e.evaluateTrajs && { evaluate_trajs: { reward: e.evaluateTrajs.reward, error: e.evaluateTrajs.error, rules: e.evaluateTrajs.rules } }),
    findings: tau2Findings(e),
  };
}
