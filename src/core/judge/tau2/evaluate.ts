/**
 * τ²-bench's `evaluate_simulation` with `EvaluationType.ALL` (evaluator/evaluator*.py at v1.0.1) by the rules of the
 * context (solo mode, strict or lenient replay: judged.ts holds the run's against evaluate-trajs'), plus a full replay
 * of every call for its output.
 * NL assertions are never recomputed: they were judged by an LLM when the run was made and are
 * taken from the file as recorded.
 */
import { PyException } from '../../py/errors';
import { pyLower } from '../../py/lower';
import { pyStrip } from '../../py/strip';
import { validate, validationErrors, type TValue } from '../../py/pydantic';
import { NLAssertionCheckModel } from '../../model/episode/tau2/models';
import { DOCSTRING, DOCSTRING_SHOWN, type Tau2Domain, type ToolType } from '../../model/domains/tau2/toolkit';
import type { RewardType, Tau2Simulation, Tau2Task } from '../../model/episode/tau2/types';
import { docstringsAgree, exceptionText, Tau2Environment, toJsonStr, type BaseDbs, type ReplayMismatch } from '../../env/tau2/environment';
import type { Tau2ReplayRules } from '../../model/episode/tau2/judging';
import { strictReplayError, type EvaluateTrajsVerdict, type StrictRaise } from './strict';
import { mergedAgentSpeech, type MergedSpeech } from '../../model/episode/tau2/ticks';
import { argsEqual } from './compare-args';
import { goldFacts, type GoldFacts } from './gold-facts';

export type { GoldFacts };
export type { DbHashes, EnvAssertionCheck, ActionCheck, CommunicateCheck, NlAssertionRecord, ReplayedCall } from './records';
import type { DbHashes, EnvAssertionCheck, ActionCheck, CommunicateCheck, NlAssertionRecord, ReplayedCall } from './records';

/** A replayed answer with DOCSTRING places (toolkit.ts) held against the recorded one: see ReplayedCall.docstring. */
export function withDocstrings(content: string, recorded: string | null): { content: string; docstring: 'recorded' | 'differs' } {
  if (recorded !== null && docstringsAgree(content, recorded)) return { content: recorded, docstring: 'recorded' };
  return { content: content.replaceAll(DOCSTRING, DOCSTRING_SHOWN), docstring: 'differs' };
}

/** A reference action that raised when τ² ran it on the gold environment: τ² logs it and goes on, the gold DB lacks its effect. */
export interface GoldActionError {
  readonly index: number;
  readonly name: string;
  readonly error: string;
}

export interface Tau2Evaluation {
  readonly simulation: Tau2Simulation;
  /** The domain whose tools judged it (`Tau2Domain.name`: airline, retail, telecom, mock, banking_knowledge). */
  readonly domain?: string;
  readonly premature: boolean;
  readonly reward: number;
  readonly rewardBasis: readonly RewardType[] | null;
  readonly rewardBreakdown: ReadonlyMap<RewardType, number> | null;
  readonly dbMatch: boolean | null;
  readonly dbReward: number | null;
  readonly dbHash: DbHashes | null;
  /** A tool drew a random id (telecom's new bill without a draft bill): these hashes are not comparable. */
  readonly dbHashNondeterministic: boolean;
  readonly initialDbHash: { readonly agent: string | null; readonly user: string | null };
  readonly envAssertions: readonly EnvAssertionCheck[] | null;
  readonly actionChecks: readonly ActionCheck[] | null;
  readonly communicateChecks: readonly CommunicateCheck[] | null;
  readonly nlAssertions: readonly NlAssertionRecord[] | null;
  readonly toolCalls: readonly ReplayedCall[];
  /** banking_knowledge: the task's `required_documents` (the knowledge-base documents it needs), as the task records them. */
  readonly requiredDocuments?: readonly string[];
  /** banking_knowledge: the discoverable tools whose reads are logged into the hashed DB (from the task's gold actions). */
  readonly readLogAllowlist?: readonly string[];
  /** Reference actions that raised on the gold environment (skipped by τ², which only logs them). */
  readonly goldActionErrors?: readonly GoldActionError[];
  /**
   * A full-duplex (voice) simulation: the agent's speech as τ²'s communicate check reads it (consecutive chunks merged
   * by utterance id); null when it could not be merged (the error says why) or the simulation has no ticks.
   */
  readonly spoken?: readonly MergedSpeech[] | null;
  /** The gold replay's own facts (task audit): env assertions that fail on it, communicate info no tool output of it holds. */
  readonly gold?: GoldFacts;
  /** Why the evaluation could not be done (no task, a replay error τ² would raise); the reward is then 0. */
  readonly error: string | null;
  /** The strict replay raised here (`error` says so): the first replayed write whose output differs from the recorded one. */
  readonly strictRaises?: StrictRaise;
  /** `tau2 evaluate-trajs` would give another verdict (judged.ts): its reward (null: none, `error` says why) and the rules that differ. */
  readonly evaluateTrajs?: EvaluateTrajsVerdict;
  /**
   * The verdict stands, but τ²'s `Results.load` refuses this file for a field the verdict does not read:
   * `<field>: <pydantic's message>` (this simulation's own first, else the file's first); null when τ² reads the file.
   */
  readonly wouldRefuse: string | null;
  readonly note: string | null;
  /** NL assertions count and the task has some, but the file records no verdict of them: τ² would ask an LLM; counted as met here. */
  readonly nlUnrecorded?: true;
}

const COMPLETED = new Set(['agent_stop', 'user_stop']);

/** What a simulation judged from a part τ² could not read says instead of a verdict (followed by `<field>: <pydantic's message>`). */
export const TAU2_UNREADABLE = 'not evaluable: τ² refuses this results file at a part the verdict reads: ';

export interface Tau2Context {
  readonly domain: Tau2Domain;
  readonly base: BaseDbs;
  readonly solo: boolean;
  /** Strict replay (as τ² judges at run time): a replayed write whose output differs from the recorded one gives no verdict. */
  readonly strict?: boolean;
  /** The rules `tau2 evaluate-trajs` would judge by, when they are to be held against these (judged.ts). */
  readonly evaluateTrajs?: Tau2ReplayRules;
  /** What τ² refuses in the file as a whole (`Tau2Run.refusal`): a blocking part of its info, and the first refusal anywhere. */
  readonly fileRefusal?: { readonly blocking: string | null; readonly first: string | null };
  /** Per task: the hashes after initialization and after the reference actions (they depend on the task alone). */
  readonly perTask?: Map<
    Tau2Task,
    {
      initial: { agent: string | null; user: string | null };
      gold?: {
        agent: string | null;
        user: string | null;
        random: boolean;
        errors: readonly GoldActionError[];
        facts: GoldFacts;
        /** The task's message history replayed on the gold environment: its first write that differs from the recorded output. */
        history: ReplayMismatch | null;
      };
    }
  >;
}

// Python parity: the tool type of a reference action, from the toolkits an environment of this run has (agent's first).
function toolTypeOf(ctx: Tau2Context, name: string): ToolType | null {
  const user = ctx.domain.user && (ctx.base.user !== null || ctx.domain.sharedDb) ? ctx.domain.user : null;
  for (const def of [ctx.domain.agent, user]) {
    const tool = def?.tools.find((x) => x.name === name);
    if (tool) return tool.toolType;
  }
  return null;
}

/** The agent's and the user's DB hash (one hash when they share a DB). */
function hashes(env: Tau2Environment): { agent: string | null; user: string | null } {
  const agent = env.agentHash();
  return { agent, user: env.domain.sharedDb ? agent : env.userHash() };
}

/** Every call replayed in order on a fresh environment (reads too), with τ²'s response to each. */
function fullReplay(ctx: Tau2Context, task: Tau2Task | null, sim: Tau2Simulation): ReplayedCall[] {
  const env = new Tau2Environment(ctx.domain, ctx.base, ctx.solo);
  try {
    if (task) env.setState({ ...task, messageHistory: [] }, []);
  } catch {
    // Initialization failing is the evaluation's to report; the calls are still replayed.
  }
  // Recorded outputs, paired by position as τ² pairs them.
  const recorded = sim.messages.filter((m) => m.role === 'tool' && !m.multiTool);
  const calls: ReplayedCall[] = [];
  sim.messages.forEach((m, messageIndex) => {
    if ((m.role !== 'assistant' && m.role !== 'user') || m.toolCalls === null) return;
    for (const call of m.toolCalls) {
      const known = env.hasTool(call.name);
      const mutating = known && env.isMutating(call.name);
      // Retrieval tools change nothing and need the knowledge-base index τ² builds at run time: never replayed.
      const retrieval =
        ctx.domain.retrievalTools?.has(call.name) === true || (known && env.route(call.name, call.requestor)?.tool(call.name)?.retrieval === true);
      // Python parity: an unknown tool answers as the live environment does (`Error: Tool '…' not found.`), and changes nothing.
      const resp = !retrieval ? env.getResponse(call) : null;
      const recordedOutput = recorded[calls.length]?.content ?? null;
      const quoted = resp !== null && resp.content.includes(DOCSTRING) ? withDocstrings(resp.content, recordedOutput) : null;
      calls.push({
        index: calls.length,
        messageIndex,
        id: call.id,
        name: call.name,
        requestor: call.requestor,
        arguments: call.arguments,
        knownTool: known,
        mutating,
        output: quoted?.content ?? resp?.content ?? null,
        error: resp?.error ?? false,
        recordedOutput,
        evaluatorReplayed: mutating,
        ...(sim.messageTicks?.[messageIndex] !== undefined ? { tickId: sim.messageTicks[messageIndex] } : {}),
        ...(retrieval ? { retrieval: true as const } : {}),
        ...(quoted ? { docstring: quoted.docstring } : {}),
      });
    }
  });
  return calls;
}

// Python parity: CommunicateEvaluator.evaluate_communicate_info (a full-duplex simulation: on the merged agent speech,
// FullDuplexCommunicateEvaluator).
export function communicateChecks(
  info: readonly string[],
  messages: readonly { readonly role: string; readonly content: string | null }[],
): CommunicateCheck[] {
  return info.map((s) => {
    const needle = pyLower(s);
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i]!;
      // Python parity: Message.has_text_content — str.strip() (Python's whitespace, not JS trim's: \x1c-\x1f, \x85 are, U+FEFF is not).
      if (m.role !== 'assistant' || m.content === null || pyStrip(m.content) === '') continue;
      if (pyLower(m.content).replaceAll(',', '').includes(needle))
        return { info: s, met: true, justification: `Information '${s}' communicated in the message:\n '${m.content}'`, messageIndex: i };
    }
    return { info: s, met: false, justification: `Information '${s}' not communicated.`, messageIndex: null };
  });
}

function recordedNl(sim: Tau2Simulation): NlAssertionRecord[] | null {
  const nl = sim.rewardInfo?.get('nl_assertions');
  if (!Array.isArray(nl)) return null;
  return nl.map((x) => {
    const d = x instanceof Map ? x : new Map<string, TValue>();
    // As τ²'s RewardInfo reads it: a met of "yes" or 1 is True (pydantic's lax bool); one it refuses is no verdict (null).
    const met = validationErrors(NLAssertionCheckModel, d).length === 0 ? validate(NLAssertionCheckModel, d).get('met') : d.get('met');
    const just = d.get('justification');
    return {
      assertion: String(d.get('nl_assertion') ?? ''),
      met: typeof met === 'boolean' ? met : null,
      justification: typeof just === 'string' ? just : null,
      recorded: true,
    };
  });
}

/** The merged agent speech for showing (null when τ² could not merge it: the evaluation says so where it counts). */
function safeSpeech(ticks: NonNullable<Tau2Simulation['ticks']>): MergedSpeech[] | null {
  try {
    return mergedAgentSpeech(ticks);
  } catch {
    return null;
  }
}

const product = (xs: Iterable<number>): number => {
  let r = 1;
  for (const x of xs) r *= x;
  return r;
};

/** Judges one simulation as τ² does by `ctx`'s rules; never throws (an evaluation error is reported in `error`). See judged.ts. */
export function judgeTau2(ctx: Tau2Context, task: Tau2Task | null, sim: Tau2Simulation): Tau2Evaluation {
  const initEnv = (): Tau2Environment => {
    const env = new Tau2Environment(ctx.domain, ctx.base, false);
    if (task) env.setState({ ...task, messageHistory: [] }, []);
    return env;
  };
  let initialDbHash = { agent: null as string | null, user: null as string | null };
  const cached = task ? ctx.perTask?.get(task) : undefined;
  if (cached) initialDbHash = cached.initial;
  else
    try {
      const env = initEnv();
      initialDbHash = hashes(env);
      if (task) ctx.perTask?.set(task, { initial: initialDbHash });
    } catch {
      /* reported below */
    }
  let replay: ReplayedCall[] = [];
  let replayError: string | null = null;
  try {
    replay = fullReplay(ctx, task, sim);
  } catch (e) {
    replayError = e instanceof PyException ? `${e.pyType}: ${e.text}` : String(e);
  }
  const allowlist = task && ctx.domain.readLogAllowlist ? [...ctx.domain.readLogAllowlist(task.criteria?.actions ?? [])] : null;
  const base = {
    simulation: sim,
    domain: ctx.domain.name,
    wouldRefuse: sim.refusals.other ?? sim.refusals.nl ?? ctx.fileRefusal?.first ?? null,
    initialDbHash,
    toolCalls: replay,
    nlAssertions: recordedNl(sim),
    ...(allowlist !== null ? { readLogAllowlist: allowlist } : {}),
    ...(Array.isArray(task?.raw.get('required_documents'))
      ? { requiredDocuments: (task!.raw.get('required_documents') as TValue[]).filter((x): x is string => typeof x === 'string') }
      : {}),
  };
  const empty = {
    rewardBasis: null,
    rewardBreakdown: null,
    dbMatch: null,
    dbReward: null,
    dbHash: null,
    dbHashNondeterministic: false,
    envAssertions: null,
    actionChecks: null,
    communicateChecks: null,
  };
  // No verdict from a part τ² could not read (tau2-refusals.ts): the run's info, the simulation, its task, the recorded
  // NL verdicts where they count.
  const criteriaRead = task?.criteria ?? null;
  const nlCounts = criteriaRead !== null && criteriaRead.rewardBasis.includes('NL_ASSERTION') && (criteriaRead.nlAssertions?.length ?? 0) > 0;
  const blocking = ctx.fileRefusal?.blocking ?? sim.invalid ?? task?.refusals.blocking ?? (nlCounts ? sim.refusals.nl : null);
  if (blocking !== null)
    return {
      ...base,
      ...empty,
      premature: false,
      reward: 0,
      error: `${TAU2_UNREADABLE}${blocking}`,
      note: null,
      wouldRefuse: null,
    };
  // Python parity: evaluate-trajs looks the task up (`tasks[simulation.task_id]`, a KeyError) before evaluate_simulation
  // sees the termination reason: a premature simulation of a task the file lacks gets no verdict either.
  if (task === null) return { ...base, ...empty, premature: false, reward: 0, error: `task ${sim.taskId} is not in the file`, note: null };
  if (!COMPLETED.has(sim.terminationReason))
    return {
      ...base,
      ...empty,
      premature: true,
      reward: 0,
      error: null,
      note: `Simulation terminated prematurely. Termination reason: ${sim.terminationReason}`,
    };
  if (replayError !== null) return { ...base, ...empty, premature: false, reward: 0, error: `the calls could not be replayed: ${replayError}`, note: null };
  const criteria = task.criteria;
  if (criteria === null) return { ...base, ...empty, premature: false, reward: 1, error: null, note: 'No evaluation criteria' };
  // Python parity: evaluate_simulation with `simulation.messages` None (a full-duplex one: `simulation.ticks` None) —
  // each evaluator returns before reading the trajectory only when it has nothing to check; otherwise iterating None raises.
  const nonEmpty = (xs: readonly unknown[] | null): boolean => xs !== null && xs.length > 0;
  if (
    sim.noMessages &&
    (criteria.actions !== null ||
      criteria.envAssertions !== null ||
      nonEmpty(criteria.communicateInfo) ||
      (criteria.rewardBasis.includes('NL_ASSERTION') && nonEmpty(criteria.nlAssertions)))
  )
    return {
      ...base,
      ...empty,
      premature: false,
      reward: 0,
      error: sim.fullDuplex
        ? "TypeError: 'NoneType' object is not iterable — a full-duplex (voice) simulation that records no ticks, and τ²'s evaluator reads them for this task's checks"
        : "TypeError: 'NoneType' object is not iterable — the simulation records no messages, and τ²'s evaluator reads them for this task's checks",
      note: null,
    };
  try {
    const basis = criteria.rewardBasis;
    // Environment: the predicted env (agent's calls replayed) against the gold env (reference actions).
    let dbMatch = true;
    let dbHash: DbHashes | null = null;
    let envChecks: EnvAssertionCheck[] | null = null;
    let random = false;
    let goldErrors: readonly GoldActionError[] = [];
    let goldFactsOf: GoldFacts | null = null;
    // Only for the tool types of reference actions: built when there are some.
    if (criteria.actions !== null || criteria.envAssertions !== null) {
      const predicted = new Tau2Environment(ctx.domain, ctx.base, ctx.solo);
      const differs = predicted.setState(task, sim.messages);
      const memo = ctx.perTask?.get(task);
      let goldHashes = memo?.gold;
      if (goldHashes === undefined) {
        // Python parity: the gold environment is built without solo mode.
        const gold = new Tau2Environment(ctx.domain, ctx.base, false);
        const history = gold.setState(task, task.messageHistory)[0] ?? null;
        const errors: GoldActionError[] = [];
        const outputs: string[] = [];
        (criteria.actions ?? []).forEach((a, index) => {
          try {
            outputs.push(toJsonStr(gold.makeToolCall(a.name, a.requestor, a.arguments)));
          } catch (e) {
            // Python parity: EnvironmentEvaluator logs a gold action's exception and goes on.
            errors.push({ index, name: a.name, error: exceptionText(e) });
          }
        });
        goldHashes = {
          ...hashes(gold),
          random: gold.nondeterministic(),
          errors,
          facts: goldFacts(gold, criteria.envAssertions ?? [], criteria.communicateInfo, outputs),
          history,
        };
        if (memo) memo.gold = goldHashes;
      }
      // Python parity: Environment.set_state(strict=True) raises at the first replayed write that differs (the gold
      // environment's message history first: EnvironmentEvaluator sets the predicted one up, then the gold one).
      const raised = ctx.strict ? strictReplayError(differs[0] ?? null, goldHashes.history) : null;
      if (raised !== null) return { ...base, ...empty, premature: false, reward: 0, error: raised.error, strictRaises: raised.at, note: null };
      const p = hashes(predicted);
      dbHash = { goldAgent: goldHashes.agent, predictedAgent: p.agent, goldUser: goldHashes.user, predictedUser: p.user };
      random = goldHashes.random || predicted.nondeterministic();
      goldErrors = goldHashes.errors;
      goldFactsOf = goldHashes.facts;
      dbMatch = dbHash.goldAgent === dbHash.predictedAgent && dbHash.goldUser === dbHash.predictedUser;
      envChecks = (criteria.envAssertions ?? []).map((a) => {
        const met = predicted.runEnvAssertion(a);
        return { assertion: a, met, reward: met ? 1 : 0, error: null };
      });
    }
    const envAssertionReward = product((envChecks ?? []).map((c) => c.reward));
    // Actions: every reference action must be matched by some call of the agent or the user.
    const calls = sim.messages.flatMap((m) => ((m.role === 'assistant' || m.role === 'user') && m.toolCalls !== null ? m.toolCalls : []));
    const actionChecks =
      criteria.actions === null || criteria.actions.length === 0
        ? null
        : criteria.actions.map((a) => {
            const i = calls.findIndex((c) => c.name === a.name && argsEqual(a, c.arguments));
            return {
              action: a,
              actionMatch: i >= 0,
              actionReward: i >= 0 ? 1 : 0,
              toolType: toolTypeOf(ctx, a.name),
              matchedCall: i >= 0 ? i : null,
            };
          });
    const actionReward = actionChecks === null || actionChecks.every((c) => c.actionMatch) ? 1 : 0;
    const hasInfo = criteria.communicateInfo !== null && criteria.communicateInfo.length > 0;
    // Python parity: FullDuplexCommunicateEvaluator merges the agent's chunks only when there is something to check.
    const spoken = sim.fullDuplex && hasInfo ? mergedAgentSpeech(sim.ticks ?? []) : null;
    const comm = !hasInfo
      ? null
      : communicateChecks(criteria.communicateInfo!, spoken === null ? sim.messages : spoken.map((m) => ({ role: 'assistant', content: m.content })));
    const commReward = comm === null || comm.every((c) => c.met) ? 1 : 0;
    const nl = base.nlAssertions;
    // Python parity: NLAssertionsEvaluator.calculate_reward — a task without NL assertions scores 1, whatever the file recorded.
    const noNl = criteria.nlAssertions === null || criteria.nlAssertions.length === 0;
    const nlReward = noNl || nl === null || nl.length === 0 || nl.every((c) => c.met === true) ? 1 : 0;
    const nlUnrecorded = basis.includes('NL_ASSERTION') && !noNl && (nl === null || nl.length === 0);
    const dbReward = dbMatch ? 1 : 0;
    // Python parity: evaluate_simulation's product over the basis, breakdown in env, action, nl, communicate order.
    const breakdown = new Map<RewardType, number>();
    let reward = 1;
    const has = (t: RewardType): boolean => basis.includes(t);
    const count = (t: RewardType, r: number): void => {
      breakdown.set(t, r);
      reward *= r;
    };
    if (has('DB') && dbHash !== null) count('DB', dbReward);
    if (has('ENV_ASSERTION') && envChecks !== null) count('ENV_ASSERTION', envAssertionReward);
    if (has('ACTION')) count('ACTION', actionReward);
    if (has('NL_ASSERTION')) count('NL_ASSERTION', nlReward);
    if (has('COMMUNICATE')) count('COMMUNICATE', commReward);
    return {
      ...base,
      premature: false,
      reward,
      rewardBasis: basis,
      rewardBreakdown: breakdown,
      dbMatch,
      dbReward,
      dbHash,
      ...(goldErrors.length > 0 ? { goldActionErrors: goldErrors } : {}),
      ...(goldFactsOf !== null ? { gold: goldFactsOf } : {}),
      dbHashNondeterministic: random,
      envAssertions: envChecks,
      actionChecks,
      communicateChecks: comm,
      ...(sim.fullDuplex ? { spoken: spoken ?? (sim.ticks ? safeSpeech(sim.ticks) : null) } : {}),
      error: null,
      note: criteria.actions === null && criteria.envAssertions === null ? 'No expected actions or env assertions' : null,
      ...(nlUnrecorded ? { nlUnrecorded } : {}),
    };
  } catch (e) {
    return { ...base, ...empty, premature: false, reward: 0, error: e instanceof PyException ? `${e.pyType}: ${e.text}` : String(e), note: null };
  }
}
