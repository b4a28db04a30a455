/**
 * One τ² simulation as the app's simulation screen shows it: the messages by role with each call's
 * requestor and its replayed and recorded output, the DB check with its record diff and blame, env
 * assertions with their expected and actual values, reference actions lined up with the call that
 * matched, communicate infos with where they were found, NL assertions as recorded, and the walkthrough.
 * Plain, structured-cloneable data.
 */
import { PyException } from '../../py/errors';
import type { Span } from '../../env/output-match';
import { modelDump, pyJsonDumps, type TValue } from '../../py/pydantic';
import { Tau2Environment } from '../../env/tau2/environment';
import type { PyValue } from '../../py/value';
import { recordedRewardOf } from '../../model/episode/episode-record';
import type { Tau2Context, Tau2Evaluation } from '../../judge/tau2/evaluate';
import type { Tau2Task } from '../../model/episode/tau2/types';
import { communicateSpan } from './communicate-span';
import { tau2DbDiff, type Tau2RecordDiff } from './db-diff';
import type { Tau2RetrievalView } from './retrieval';
import type { VoiceTimelineView } from './voice/timeline';
import { tau2Explain } from './explain';
import { tau2Findings, type Tau2Finding } from './findings';
import { maskPydanticUrl } from './report';
import { tau2Reviews, type Tau2ReviewView } from './reviews';
import type { Tau2Place, Tau2Timeline } from './state-at-step';

export { communicateSpan } from './communicate-span';

export type { Tau2RecordDiff };

export interface Tau2CallView {
  /** Position among every tool call of the simulation, in replay order (what blame and action checks name). */
  readonly index: number;
  readonly id: string;
  readonly name: string;
  /** Who made the call: the agent (`assistant`), or the user on their own device (telecom). */
  readonly requestor: string;
  /** The arguments as JSON (τ²'s `json.dumps` of them). */
  readonly arguments: string;
  readonly known: boolean;
  readonly mutating: boolean;
  /** A retrieval call (banking_knowledge's knowledge-base search, shell): never replayed; its recorded output stands. */
  readonly retrieval?: true;
  /** The answer quotes τ²'s docstrings, which tau-inspect does not carry (ReplayedCall.docstring). */
  readonly docstring?: 'recorded' | 'differs';
  /** What τ²'s environment answers on a replay of every call in order (null: a retrieval call). */
  readonly output: string | null;
  readonly error: boolean;
  readonly recordedOutput: string | null;
  /** Replayed output equals the recorded one (up to the pydantic version in help URLs); null when either is missing. */
  readonly matchesRecorded: boolean | null;
  /** Under a what-if: the edited run's replay answers this call otherwise than the unedited run's (`inserted`: a call the edit added); absent: the same. */
  readonly whatIf?: 'changed' | 'inserted';
}

export interface Tau2MessageView {
  readonly index: number;
  readonly role: string;
  readonly content: string | null;
  readonly calls: readonly Tau2CallView[];
  /** A tool message: the call it answers (its index), and who asked. */
  readonly answers: number | null;
  readonly requestor: string | null;
  readonly error: boolean;
}

export interface Tau2EnvAssertionView {
  readonly envType: string;
  readonly func: string;
  readonly arguments: string;
  /** `assert_value` (True unless the task says otherwise). */
  readonly expected: string;
  /** What the function returns on the final environment (or the exception it raised). */
  readonly actual: string;
  readonly met: boolean;
  readonly message: string | null;
}

export interface Tau2ActionView {
  readonly actionId: string;
  readonly name: string;
  readonly requestor: string;
  readonly arguments: string;
  /** `compare_args`: the arguments compared (null: all of them). */
  readonly compareArgs: readonly string[] | null;
  readonly info: string | null;
  readonly match: boolean;
  /** The first call that matched (index as in `Tau2CallView.index`). */
  readonly matchedCall: number | null;
  readonly toolType: string | null;
  /** Calls of the same tool that did not match (the nearest candidates to look at). */
  readonly sameName: readonly number[];
}

export interface Tau2SimView {
  /** Which benchmark's screen data this is (a τ-bench episode's is `EpisodeView`). */
  readonly benchmark: 'tau2';
  /** banking_knowledge: the documents each retrieval call brought back, opened from the data (the worker adds it; absent elsewhere). */
  readonly retrieval?: Tau2RetrievalView;
  /** A full-duplex (voice) simulation: its timeline of ticks (the session adds it; absent for a turn-based one). */
  readonly voice?: VoiceTimelineView;
  readonly index: number;
  readonly simulationId: string;
  readonly taskId: string;
  readonly trial: string;
  readonly termination: string;
  readonly premature: boolean;
  readonly reward: number;
  readonly recordedReward: number | null;
  /** A recorded reward that is not a finite number, as written (`NaN (not a number)`); `recordedReward` is then null. */
  readonly recordedRewardText?: string;
  readonly agrees: boolean | null;
  readonly error: string | null;
  readonly note: string | null;
  readonly basis: readonly string[] | null;
  readonly breakdown: Readonly<Record<string, number>> | null;
  readonly instructions: string | null;
  readonly messages: readonly Tau2MessageView[];
  readonly db: {
    readonly match: boolean | null;
    readonly hashes: {
      readonly goldAgent: string | null;
      readonly predictedAgent: string | null;
      readonly goldUser: string | null;
      readonly predictedUser: string | null;
    };
    readonly nondeterministic: boolean;
    readonly diff: readonly Tau2RecordDiff[];
    /** Why there is no diff although the hashes differ (it could not be computed). */
    readonly diffError: string | null;
  } | null;
  readonly envAssertions: readonly Tau2EnvAssertionView[] | null;
  readonly actions: readonly Tau2ActionView[] | null;
  /** Each info, the message it was found in and where in that message's text (`span`, for highlighting). */
  readonly communicate: readonly { readonly info: string; readonly met: boolean; readonly messageIndex: number | null; readonly span: Span | null }[] | null;
  readonly nl: readonly { readonly assertion: string; readonly met: boolean | null; readonly justification: string | null }[] | null;
  readonly walkthrough: readonly string[];
  readonly findings: readonly Tau2Finding[];
  /** The reviews recorded with the simulation (an LLM's, when the run was made), as recorded. */
  readonly reviews: readonly Tau2ReviewView[];
  /** The records each call changed on the replay (its index as in `Tau2CallView.index`); empty without a timeline. */
  readonly writes: readonly (Tau2Place & { readonly call: number })[];
  /**
   * The simulation as its file records it, nothing recomputed (τ²'s data is not here yet): calls without a replayed
   * output, the checks and the reward as `reward_info` records them (`reward` is then the recorded one).
   */
  readonly recordedOnly?: true;
}

const json = (v: TValue): string => pyJsonDumps(modelDump(v));
const shown = (v: TValue): string => (typeof v === 'boolean' ? (v ? 'True' : 'False') : v === null ? 'None' : json(v));
const errorText = (e: unknown): string => (e instanceof PyException ? `${e.pyType}: ${e.text}` : e instanceof Error ? e.message : String(e));

/** The task's instructions for the user simulator, when the file has them (`user_scenario.instructions`). */
export function instructionsOf(task: Tau2Task | null): string | null {
  const scenario = task?.raw.get('user_scenario');
  const ins = scenario instanceof Map ? scenario.get('instructions') : undefined;
  if (typeof ins === 'string') return ins;
  return ins instanceof Map || Array.isArray(ins) ? json(ins) : null;
}

function envAssertions(ctx: Tau2Context, task: Tau2Task, e: Tau2Evaluation): Tau2EnvAssertionView[] | null {
  if (e.envAssertions === null) return null;
  // The final environment of the agent's run, as evaluate_simulation asserts on it (in task order).
  let env: Tau2Environment | null = null;
  let setup: string | null = null;
  try {
    env = new Tau2Environment(ctx.domain, ctx.base, ctx.solo);
    env.setState(task, e.simulation.messages);
  } catch (x) {
    setup = errorText(x);
  }
  return e.envAssertions.map((c) => {
    let actual: string;
    if (env === null) actual = `(the environment could not be built: ${setup})`;
    else
      try {
        actual = shown(env.runEnvFunctionCall(c.assertion));
      } catch (x) {
        actual = `raised ${errorText(x)}`;
      }
    return {
      envType: c.assertion.envType,
      func: c.assertion.funcName,
      arguments: json(c.assertion.arguments),
      expected: (c.assertion.assertValue ?? true) ? 'True' : 'False',
      actual,
      met: c.met,
      message: c.assertion.message,
    };
  });
}

/** The messages with their calls (`calls`: replayed, or as recorded when nothing is replayed), each call under the message that made it. */
export function messageViews(sim: Tau2Evaluation['simulation'], calls: Tau2Evaluation['toolCalls']): Tau2MessageView[] {
  const byMessage = new Map<number, Tau2CallView[]>();
  for (const c of calls) {
    const list = byMessage.get(c.messageIndex) ?? [];
    list.push({
      index: c.index,
      id: c.id,
      name: c.name,
      requestor: c.requestor,
      arguments: json(c.arguments),
      known: c.knownTool,
      mutating: c.mutating,
      ...(c.retrieval && { retrieval: true as const }),
      ...(c.docstring && { docstring: c.docstring }),
      output: c.output,
      error: c.error,
      recordedOutput: c.recordedOutput,
      matchesRecorded: c.output === null || c.recordedOutput === null ? null : maskPydanticUrl(c.output) === maskPydanticUrl(c.recordedOutput),
    });
    byMessage.set(c.messageIndex, list);
  }
  let toolSeen = 0;
  return sim.messages.map((m, index) => {
    const answers = m.role === 'tool' ? toolSeen++ : null;
    return { index, role: m.role, content: m.content, calls: byMessage.get(index) ?? [], answers, requestor: m.requestor, error: m.error };
  });
}

/** The simulation screen's data for one judged simulation. */
export function tau2SimView(ctx: Tau2Context, e: Tau2Evaluation, task: Tau2Task | null, timeline: Tau2Timeline | null = null): Tau2SimView {
  const s = e.simulation;
  const { recordedReward, recordedRewardText } = recordedRewardOf(
    s.rewardInfo?.get('reward') as PyValue | undefined,
  ); /* parsed from JSON: no model, enum or date */
  let db: Tau2SimView['db'] = null;
  if (e.dbHash !== null && task !== null) {
    let diff: Tau2RecordDiff[] = [];
    let diffError: string | null = null;
    if (e.dbMatch === false)
      try {
        diff = tau2DbDiff(ctx, task, s);
      } catch (x) {
        diffError = errorText(x);
      }
    db = { match: e.dbMatch, hashes: e.dbHash, nondeterministic: e.dbHashNondeterministic, diff, diffError };
  }
  const calls = e.toolCalls;
  return {
    benchmark: 'tau2',
    index: s.index,
    simulationId: s.id,
    taskId: s.taskId,
    trial: s.trial === null ? '—' : String(s.trial),
    termination: s.terminationReason,
    premature: e.premature,
    reward: e.reward,
    recordedReward,
    ...(recordedRewardText !== undefined && { recordedRewardText }),
    // A simulation given no verdict (`error`) has no recomputed reward to hold against the recorded one (as the report's matches_recorded_reward).
    agrees: recordedReward === null || e.error !== null ? null : recordedReward === e.reward,
    error: e.error,
    note: e.note,
    basis: e.rewardBasis,
    breakdown: e.rewardBreakdown && Object.fromEntries(e.rewardBreakdown),
    instructions: instructionsOf(task),
    messages: messageViews(e.simulation, e.toolCalls),
    db,
    envAssertions: task === null ? null : envAssertions(ctx, task, e),
    actions:
      e.actionChecks &&
      e.actionChecks.map((c) => ({
        actionId: c.action.actionId,
        name: c.action.name,
        requestor: c.action.requestor,
        arguments: json(c.action.arguments),
        compareArgs: c.action.compareArgs,
        info: c.action.info,
        match: c.actionMatch,
        matchedCall: c.matchedCall,
        toolType: c.toolType,
        sameName: calls.filter((x) => x.name === c.action.name && x.index !== c.matchedCall).map((x) => x.index),
      })),
    communicate:
      e.communicateChecks &&
      e.communicateChecks.map((c) => {
        // A full-duplex simulation's communicate checks point into the agent's merged speech, not its messages.
        const content = c.messageIndex === null ? null : s.fullDuplex ? e.spoken?.[c.messageIndex]?.content : s.messages[c.messageIndex]?.content;
        return { info: c.info, met: c.met, messageIndex: c.messageIndex, span: content ? communicateSpan(content, c.info) : null };
      }),
    nl: e.nlAssertions && e.nlAssertions.map((c) => ({ assertion: c.assertion, met: c.met, justification: c.justification })),
    walkthrough: tau2Explain(e, task),
    findings: tau2Findings(e),
    reviews: tau2Reviews(s),
    writes: timeline ? [...timeline.writes].flatMap(([call, places]) => places.map((p) => ({ ...p, call }))) : [],
  };
}
