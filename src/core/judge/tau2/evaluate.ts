/**
 * τ²-bench's `evaluate_simulation` with `EvaluationType.ALL` (evaluator/evaluator*.py at v1.0.1, as
 * `tau2 evaluate-trajs` runs it: lenient replay), plus a full replay of every call for its output.
 * NL assertions are never recomputed: they were judged by an LLM when the run was made and are
 * taken from the file as recorded.
 */
import { PyException } from '../../py/errors';
import { pyLower } from '../../py/lower';
import { pyStrip } from '../../py/strip';
import type { TDict, TValue } from '../../py/pydantic';
import { DOCSTRING, DOCSTRING_SHOWN, type Tau2Domain, type ToolType } from '../../model/domains/tau2/toolkit';
import type { EnvFunctionCall, Requestor, RewardType, Tau2Action, Tau2Simulation, Tau2Task } from '../../model/episode/tau2-types';
import { exceptionText, Tau2Environment, toJsonStr, type BaseDbs } from '../../env/tau2/environment';
import { argsEqual } from './compare-args';

export interface DbHashes {
  readonly goldAgent: string | null;
  readonly predictedAgent: string | null;
  readonly goldUser: string | null;
  readonly predictedUser: string | null;
}

export interface EnvAssertionCheck {
  readonly assertion: EnvFunctionCall;
  readonly met: boolean;
  readonly reward: number;
  /** The assertion raised instead of answering (τ² would stop the evaluation there). */
  readonly error: string | null;
}

export interface ActionCheck {
  readonly action: Tau2Action;
  readonly actionMatch: boolean;
  readonly actionReward: number;
  readonly toolType: ToolType | null;
  /** Index (in `toolCalls`) of the first call that matched. */
  readonly matchedCall: number | null;
}

export interface CommunicateCheck {
  readonly info: string;
  readonly met: boolean;
  readonly justification: string;
  /** Index of the message it was found in. */
  readonly messageIndex: number | null;
}

export interface NlAssertionRecord {
  readonly assertion: string;
  readonly met: boolean | null;
  readonly justification: string | null;
  /** Always true: taken from the file, judged by an LLM when the run was made. */
  readonly recorded: true;
}

export interface ReplayedCall {
  readonly index: number;
  readonly messageIndex: number;
  readonly id: string;
  readonly name: string;
  readonly requestor: Requestor;
  readonly arguments: TDict;
  readonly knownTool: boolean;
  readonly mutating: boolean;
  /** What τ²'s environment returns for it on a replay of every call in order (an unknown tool: its error); null for a retrieval call. */
  readonly output: string | null;
  readonly error: boolean;
  readonly recordedOutput: string | null;
  /** τ² v1.0.1's evaluator re-executes only known, mutating calls. */
  readonly evaluatorReplayed: boolean;
  /** A retrieval call (banking_knowledge's knowledge-base search, shell): never replayed, its output is what the file recorded. */
  readonly retrieval?: true;
  /**
   * Its answer quotes τ²'s docstrings (banking_knowledge's unlock and give), which tau-inspect does not carry:
   * 'recorded' — every other part of the replayed answer agrees with the recorded one, so `output` is the recorded
   * answer; 'differs' — it does not, and `output` shows DOCSTRING_SHOWN in the docstring's places.
   */
  readonly docstring?: 'recorded' | 'differs';
}

const escapeRegExp = (t: string): string => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A replayed answer with DOCSTRING places (toolkit.ts) held against the recorded one: see ReplayedCall.docstring. */
export function withDocstrings(content: string, recorded: string | null): { content: string; docstring: 'recorded' | 'differs' } {
  const around = new RegExp(`^${content.split(DOCSTRING).map(escapeRegExp).join('[\\s\\S]*')}$`);
  if (recorded !== null && around.test(recorded)) return { content: recorded, docstring: 'recorded' };
  return { content: content.replaceAll(DOCSTRING, DOCSTRING_SHOWN), docstring: 'differs' };
}

/** A reference action that raised when τ² ran it on the gold environment: τ² logs it and goes on, the gold DB lacks its effect. */
export interface GoldActionError {
  readonly index: number;
  readonly name: string;
  readonly error: string;
}

/** What replaying the reference actions shows about a task itself (the same for every simulation of it). */
export interface GoldFacts {
  /** Env assertions that fail (or raise) on the gold environment after the reference actions. */
  readonly failingAssertions: readonly { readonly index: number; readonly func: string; readonly error: string | null }[];
  /** Communicate info that no tool output of the gold replay contains (as τ²'s communicate check matches text). */
  readonly unseenInfo: readonly string[];
}

export interface Tau2Evaluation {
  readonly simulation: Tau2Simulation;
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
  /** The gold replay's own facts (task audit): env assertions that fail on it, communicate info no tool output of it holds. */
  readonly gold?: GoldFacts;
  /** Why the evaluation could not be done (no task, a replay error τ² would raise); the reward is then 0. */
  readonly error: string | null;
  readonly note: string | null;
  /** NL assertions count and the task has some, but the file records no verdict of them: τ² would ask an LLM; counted as met here. */
  readonly nlUnrecorded?: true;
}

const COMPLETED = new Set(['agent_stop', 'user_stop']);

export interface Tau2Context {
  readonly domain: Tau2Domain;
  readonly base: BaseDbs;
  readonly solo: boolean;
  /** Per task: the hashes after initialization and after the reference actions (they depend on the task alone). */
  readonly perTask?: Map<
    Tau2Task,
    {
      initial: { agent: string | null; user: string | null };
      gold?: { agent: string | null; user: string | null; random: boolean; errors: readonly GoldActionError[]; facts: GoldFacts };
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
        ...(retrieval ? { retrieval: true as const } : {}),
        ...(quoted ? { docstring: quoted.docstring } : {}),
      });
    }
  });
  return calls;
}

// Python parity: CommunicateEvaluator.evaluate_communicate_info.
function communicateChecks(info: readonly string[], sim: Tau2Simulation): CommunicateCheck[] {
  return info.map((s) => {
    const needle = pyLower(s);
    for (let i = 0; i < sim.messages.length; i++) {
      const m = sim.messages[i]!;
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
    const met = d.get('met');
    const just = d.get('justification');
    return {
      assertion: String(d.get('nl_assertion') ?? ''),
      met: typeof met === 'boolean' ? met : null,
      justification: typeof just === 'string' ? just : null,
      recorded: true,
    };
  });
}

/**
 * The gold environment's own facts, after the reference actions (task audit, not part of any reward): each env
 * assertion run on it as τ² runs them on the predicted one, and each communicate info looked for in the gold
 * replay's tool outputs as τ² looks for it in the agent's messages (lowercased, commas dropped from the text).
 */
function goldFacts(gold: Tau2Environment, assertions: readonly EnvFunctionCall[], info: readonly string[] | null, outputs: readonly string[]): GoldFacts {
  const failingAssertions: { index: number; func: string; error: string | null }[] = [];
  // A live run answers each call through get_response, which syncs the toolkits after it (telecom's device and line).
  try {
    gold.syncTools();
  } catch {
    /* the assertions below say what fails */
  }
  assertions.forEach((a, index) => {
    try {
      if (!gold.runEnvAssertion(a)) failingAssertions.push({ index, func: a.funcName, error: null });
    } catch (e) {
      failingAssertions.push({ index, func: a.funcName, error: exceptionText(e) });
    }
  });
  const hay = outputs.map((o) => pyLower(o).replaceAll(',', ''));
  const unseenInfo = (info ?? []).filter((s) => !hay.some((h) => h.includes(pyLower(s))));
  return { failingAssertions, unseenInfo };
}

const product = (xs: Iterable<number>): number => {
  let r = 1;
  for (const x of xs) r *= x;
  return r;
};

/** Judges one simulation as τ² does; never throws (an evaluation error is reported in `error`). */
export function evaluateTau2(ctx: Tau2Context, task: Tau2Task | null, sim: Tau2Simulation): Tau2Evaluation {
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
  const invalid = sim.invalid ?? task?.criteria?.invalid ?? null;
  if (invalid !== null)
    return {
      ...base,
      ...empty,
      premature: false,
      reward: 0,
      error: `τ² refuses this results file (its pydantic models do not validate): ${invalid}`,
      note: null,
    };
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
  if (sim.fullDuplex)
    return {
      ...base,
      ...empty,
      premature: false,
      reward: 0,
      error: 'a full-duplex (voice) simulation: τ² judges its ticks, which this version does not read yet',
      note: null,
    };
  if (task === null) return { ...base, ...empty, premature: false, reward: 0, error: `task ${sim.taskId} is not in the file`, note: null };
  const criteria = task.criteria;
  if (criteria === null) return { ...base, ...empty, premature: false, reward: 1, error: null, note: 'No evaluation criteria' };
  // Python parity: evaluate_simulation with `simulation.messages` None — each evaluator returns before reading the
  // trajectory only when it has nothing to check; otherwise iterating None raises.
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
      error: "TypeError: 'NoneType' object is not iterable — the simulation records no messages, and τ²'s evaluator reads them for this task's checks",
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
      predicted.setState(task, sim.messages);
      const memo = ctx.perTask?.get(task);
      let goldHashes = memo?.gold;
      if (goldHashes === undefined) {
        // Python parity: the gold environment is built without solo mode.
        const gold = new Tau2Environment(ctx.domain, ctx.base, false);
        gold.setState(task, task.messageHistory);
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
        };
        if (memo) memo.gold = goldHashes;
      }
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
    const comm = criteria.communicateInfo === null || criteria.communicateInfo.length === 0 ? null : communicateChecks(criteria.communicateInfo, sim);
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
      error: null,
      note: criteria.actions === null && criteria.envAssertions === null ? 'No expected actions or env assertions' : null,
      ...(nlUnrecorded ? { nlUnrecorded } : {}),
    };
  } catch (e) {
    return { ...base, ...empty, premature: false, reward: 0, error: e instanceof PyException ? `${e.pyType}: ${e.text}` : String(e), note: null };
  }
}
