import type { Db, Domain } from '../model/data/db';
import { TOOLS } from '../model/domains/registry';
import { RESPOND } from '../model/episode/actions';
import type { ToolDef } from '../model/domains/tool';
import type { Action, AgentStep } from '../model/episode/types';
import { PyException } from '../py/errors';
import { pyRepr } from '../py/repr';
import { executeTool, writesOfCall, type ToolOutcome } from './execute';
import type { WritePath } from './write-log';

export const STOP_TOKEN = '###STOP###';

/** A record touched by a step: `table/key` whose object changed. */
export interface RecordRef {
  readonly table: string;
  readonly key: string;
}

export interface ExecutedStep {
  /** 0-based position among executed actions. */
  readonly index: number;
  readonly agentStep: AgentStep;
  readonly action: Action;
  /** τ-bench's observation now (for a respond: the recorded next user turn). */
  readonly observation: string;
  /** `info.source`: `user` for a respond, else the action name. */
  readonly source: string;
  readonly done: boolean;
  readonly unknownTool: boolean;
  /** The DB after this step. */
  readonly state: Db;
  /** Records this step changed (structural sharing makes this an identity check), worked out on first read. */
  readonly changed: readonly RecordRef[];
  /** Python exception raised by the tool (already in `observation` as `Error: …`). */
  readonly exception: PyException | null;
}

export interface Replay {
  readonly steps: readonly ExecutedStep[];
  readonly finalState: Db;
  readonly done: boolean;
  readonly doneBy: 'stop' | 'terminate_tool' | null;
  /** Why τ-bench would have crashed on this episode (the run would have recorded no trajectory). */
  readonly crash: { readonly stepIndex: number; readonly reason: string } | null;
  /** Agent messages after the one that ended the episode (not executed). */
  readonly ignoredAfterDone: number;
}

/** Records whose object identity differs between two states of the same domain. */
export function changedRecords(before: Db, after: Db): RecordRef[] {
  if (before === after) return [];
  const out: RecordRef[] = [];
  for (const [table, t1] of after) {
    const t0 = before.get(table);
    if (t0 === t1 || !(t1 instanceof Map)) continue;
    const t0m = t0 instanceof Map ? t0 : new Map();
    // forEach: no [key, record] pair allocated for each of a table's thousands of records.
    t1.forEach((rec, key) => {
      if (t0m.get(key) !== rec) out.push({ table, key: key as string });
    });
    t0m.forEach((_rec, key) => {
      if (!t1.has(key)) out.push({ table, key: key as string });
    });
  }
  return out;
}

/** Applies one non-respond action the way `Env.step` does. */
export function applyTool(domain: Domain, state: Db, action: Action) {
  const tool = TOOLS[domain].get(action.name);
  if (!tool) return { state, observation: `Unknown action ${action.name}`, unknownTool: true, terminates: false, exception: null };
  const out = executeTool(state, tool, action.kwargs);
  return {
    state: out.state,
    observation: out.observation,
    unknownTool: false,
    terminates: tool.terminates === true,
    exception: out.exception ?? null,
  };
}

/**
 * Where each action's call wrote, changed or not (`[table, key, …path]`; empty for a respond, a
 * read, an unknown tool, a skipped action). `before[i]` is the DB action i ran on.
 */
export function writesOfActions(domain: Domain, before: readonly Db[], actions: readonly Action[]): WritePath[][] {
  return actions.map((action, i) => {
    const tool = TOOLS[domain].get(action.name);
    return tool?.writes ? [...writesOfCall(before[i]!, tool, action.kwargs).writes] : [];
  });
}

/**
 * What read-only calls answered on a DB every episode starts from (frozen: the same call answers the same), by the
 * call's name and `repr` of its arguments (`repr` tells every argument value apart: `1`, `1.0`, `True`, `'1'`). Agents
 * look up the same users, reservations and orders episode after episode before they change anything. Bounded by the
 * answers' length; a DB no longer used is dropped with its answers.
 */
const readsOnBase = new WeakMap<Db, { chars: number; readonly answers: Map<string, ToolOutcome> }>();
const READS_ON_BASE_CHARS = 8 << 20;

function readOnBase(base: Db, tool: ToolDef, action: Action): ToolOutcome {
  let memo = readsOnBase.get(base);
  if (!memo) readsOnBase.set(base, (memo = { chars: 0, answers: new Map() }));
  const key = `${action.name}\0${pyRepr(action.kwargs)}`;
  const known = memo.answers.get(key);
  if (known) return known;
  const out = executeTool(base, tool, action.kwargs);
  const chars = key.length + (out.observation?.length ?? 0);
  if (memo.chars + chars <= READS_ON_BASE_CHARS) {
    memo.chars += chars;
    memo.answers.set(key, out);
  }
  return out;
}

/**
 * Replays an episode's agent actions on `initial` with `Env.step` semantics, with a
 * scripted user that answers each respond with the recorded next user turn.
 */
// Python parity: tau_bench.envs.base.Env.step, driven by the agent loop of run.py.
export function replayEpisode(domain: Domain, initial: Db, agentSteps: readonly AgentStep[]): Replay {
  const steps: ExecutedStep[] = [];
  let state = initial;
  for (let i = 0; i < agentSteps.length; i++) {
    const s = agentSteps[i]!;
    if (s.action === null) {
      return { steps, finalState: state, done: false, doneBy: null, crash: { stepIndex: i, reason: s.crash ?? 'no action' }, ignoredAfterDone: 0 };
    }
    const action = s.action;
    if (action.name === RESPOND) {
      if (!action.kwargs.has('content'))
        return { steps, finalState: state, done: false, doneBy: null, crash: { stepIndex: i, reason: "KeyError: 'content'" }, ignoredAfterDone: 0 };
      const observation = s.recordedObservation ?? '';
      const done = observation.includes(STOP_TOKEN);
      steps.push({ index: i, agentStep: s, action, observation, source: 'user', done, unknownTool: false, state, changed: [], exception: null });
      if (done) return { steps, finalState: state, done, doneBy: 'stop', crash: null, ignoredAfterDone: agentSteps.length - i - 1 };
      continue;
    }
    const tool = TOOLS[domain].get(action.name);
    if (tool !== undefined && !tool.writes) {
      // A tool that only reads changes nothing and never returns None (see `defineTool`): what it answers matters to
      // no verdict, so it runs when its observation (or the exception it raised) is first read, on the very state it
      // was called on (frozen: the same answer as at once).
      const on = state;
      let out: ToolOutcome | undefined;
      const run = (): ToolOutcome => (out ??= on === initial ? readOnBase(initial, tool, action) : executeTool(on, tool, action.kwargs));
      const done = tool.terminates === true;
      steps.push({
        index: i,
        agentStep: s,
        action,
        get observation() {
          return run().observation!;
        },
        source: action.name,
        done,
        unknownTool: false,
        state,
        changed: [],
        get exception() {
          return run().exception ?? null;
        },
      });
      if (done) return { steps, finalState: state, done, doneBy: 'terminate_tool', crash: null, ignoredAfterDone: agentSteps.length - i - 1 };
      continue;
    }
    const before = state;
    const out = applyTool(domain, state, action);
    if (out.observation === null) {
      // Python parity: EnvResponse(observation=None) raises pydantic's ValidationError outside the try.
      return {
        steps,
        finalState: out.state,
        done: false,
        doneBy: null,
        crash: { stepIndex: i, reason: `ValidationError: ${action.name} returned None, which EnvResponse rejects` },
        ignoredAfterDone: 0,
      };
    }
    state = out.state;
    const done = out.terminates;
    const after = state;
    let changed: readonly RecordRef[] | undefined;
    steps.push({
      index: i,
      agentStep: s,
      action,
      observation: out.observation,
      source: action.name,
      done,
      unknownTool: out.unknownTool,
      state,
      // Worked out when a view asks (judging never does): a scan of every record of each table the step changed.
      get changed() {
        return (changed ??= changedRecords(before, after));
      },
      exception: out.exception,
    });
    if (done) return { steps, finalState: state, done, doneBy: 'terminate_tool', crash: null, ignoredAfterDone: agentSteps.length - i - 1 };
  }
  return { steps, finalState: state, done: false, doneBy: null, crash: null, ignoredAfterDone: 0 };
}
