/** One `EnvRunResult` of a τ-bench results file read into an `EpisodeRecord` (never throws: problems end up in `problem`). */
import { dumpsFloat } from '../../py/json-dumps';
import { pyRepr } from '../../py/repr';
import { detached, ownString, ownStrings, typeName, type PyDict, type PyValue } from '../../py/value';
import type { Action, EpisodeRecord, Task } from './types';

const num = (v: PyValue | undefined): number | null =>
  typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : null;

/** A field that should be a number (or absent/None): why it is not, else null. */
function numberProblem(v: PyValue | undefined, field: string): string | null {
  if (v === undefined || v === null || typeof v === 'bigint' || typeof v === 'boolean') return null;
  if (typeof v === 'number') return Number.isFinite(v) ? null : `${field} is ${pyRepr(v)}, not a finite number`;
  return `${field} is a ${typeName(v)} (${pyRepr(v).slice(0, 40)}), not a number`;
}

/**
 * A recorded reward that is not a finite number (NaN, Infinity, a str, a list), as it is shown:
 * `NaN (not a number)`, `'1.0' (a str, not a number)`; null for a number, a bool, None or no reward.
 * The recorded reward is no input of the verdict, so such an episode is judged as usual.
 */
function oddReward(v: PyValue | undefined): string | null {
  if (v === undefined || v === null || typeof v === 'bigint' || typeof v === 'boolean') return null;
  if (typeof v === 'number') return Number.isFinite(v) ? null : `${dumpsFloat(v)} (not a number)`;
  return ownString(`${pyRepr(v).slice(0, 40)} (a ${typeName(v)}, not a number)`);
}

/**
 * A recorded reward as every reader keeps it (v1 and τ² alike): a finite number (or a bool, or an int) is the recorded
 * reward; anything else is no recorded reward (it is neither compared nor counted) and is shown as written.
 */
export function recordedRewardOf(v: PyValue | undefined): { readonly recordedReward: number | null; readonly recordedRewardText?: string } {
  const x = num(v);
  const text = oddReward(v);
  return { recordedReward: x !== null && Number.isFinite(x) ? x : null, ...(text !== null && { recordedRewardText: text }) };
}

function describe(v: PyValue | undefined): string {
  return v === undefined ? 'missing' : typeName(v);
}

function readAction(v: PyValue, where: string): Action {
  if (!(v instanceof Map)) throw new Error(`${where} is a ${describe(v)}, not an object`);
  const name = v.get('name');
  const kwargs = v.get('kwargs') ?? v.get('arguments');
  if (typeof name !== 'string') throw new Error(`${where}.name is ${describe(name)}, not a string`);
  if (!(kwargs instanceof Map)) throw new Error(`${where}.kwargs is ${describe(kwargs)}, not an object`);
  return { name, kwargs };
}

function readTask(v: PyValue | undefined): Task {
  if (!(v instanceof Map)) throw new Error(`info.task is ${describe(v)}, not an object`);
  const actions = v.get('actions');
  if (!Array.isArray(actions)) throw new Error(`info.task.actions is ${describe(actions)}, not a list`);
  const outputs = v.get('outputs') ?? [];
  if (!Array.isArray(outputs)) throw new Error(`info.task.outputs is ${describe(outputs)}, not a list of strings`);
  const bad = outputs.findIndex((o) => typeof o !== 'string');
  if (bad !== -1) throw new Error(`info.task.outputs is not a list of strings: info.task.outputs[${bad}] is ${describe(outputs[bad])}`);
  const instruction = v.get('instruction');
  return {
    userId: v.get('user_id') ?? null,
    actions: actions.map((a, i) => readAction(a, `info.task.actions[${i}]`)),
    instruction: typeof instruction === 'string' ? instruction : '',
    outputs: outputs as string[],
  };
}

const KNOWN = new Set(['task_id', 'reward', 'info', 'traj', 'trial']);

/**
 * Reads one `EnvRunResult`; never throws — problems end up in `problem`. The fields a record keeps
 * besides `raw` and `traj` are strings of their own (`ownString`/`detached`): a record and the header
 * made from it outlive the episode's parsed text, and in V8 a string cut from a longer one keeps the
 * longer one alive — a kept task instruction would hold its whole episode.
 */
export function readEpisode(v: PyValue, index: number): EpisodeRecord {
  const r = readFields(v, index);
  return {
    ...r,
    problem: r.problem === null ? null : ownString(r.problem),
    runError: r.runError === null ? null : ownString(r.runError),
    extra: ownStrings(r.extra),
    recordedRewardInfo: r.recordedRewardInfo && detached(r.recordedRewardInfo),
    task: r.task && {
      userId: detached(r.task.userId),
      actions: r.task.actions.map((a) => ({ name: ownString(a.name), kwargs: detached(a.kwargs) })),
      instruction: ownString(r.task.instruction),
      outputs: r.task.outputs.map(ownString),
    },
  };
}

function readFields(v: PyValue, index: number): EpisodeRecord {
  const base = {
    raw: v,
    index,
    taskId: null,
    trial: null,
    recordedReward: null,
    task: null,
    recordedRewardInfo: null,
    traj: [] as PyDict[],
    runError: null,
    extra: {},
  };
  if (!(v instanceof Map)) return { ...base, problem: `episode ${index} is a ${describe(v)}, not an object` };
  const extra: Record<string, string> = {};
  // defineProperty: a key named `__proto__` stays an ordinary field.
  for (const [k, x] of v)
    if (!KNOWN.has(k))
      Object.defineProperty(extra, k, { value: typeof x === 'string' ? x : safeRepr(x), enumerable: true, writable: true, configurable: true });
  const info = v.get('info');
  const infoMap = info instanceof Map ? info : null;
  const runErrorValue = infoMap?.get('error');
  const runError =
    runErrorValue === undefined || runErrorValue === null ? null : String(typeof runErrorValue === 'string' ? runErrorValue : pyRepr(runErrorValue));
  const trajValue = v.get('traj');
  const traj = Array.isArray(trajValue) ? trajValue.filter((m): m is PyDict => m instanceof Map) : [];
  const rewardInfo = infoMap?.get('reward_info');
  const common = {
    ...base,
    taskId: num(v.get('task_id')),
    trial: num(v.get('trial')),
    ...recordedRewardOf(v.get('reward')),
    traj,
    runError,
    extra,
    recordedRewardInfo: rewardInfo instanceof Map ? rewardInfo : null,
  };
  if (!Array.isArray(trajValue)) return { ...common, problem: `traj is ${describe(trajValue)}, not a list` };
  const notMessage = trajValue.findIndex((m) => !(m instanceof Map));
  if (notMessage !== -1) return { ...common, problem: `traj[${notMessage}] is a ${describe(trajValue[notMessage])}, not an object (a message)` };
  const badNumber = numberProblem(v.get('task_id'), 'task_id') ?? numberProblem(v.get('trial'), 'trial');
  if (badNumber !== null) return { ...common, problem: badNumber };
  if (info !== undefined && infoMap === null) return { ...common, problem: `info is a ${describe(info)}, not an object` };
  if (runError !== null && traj.length === 0) return { ...common, problem: `the run crashed before any trajectory was kept: ${runError.split('\n')[0]}` };
  try {
    const task = readTask(infoMap?.get('task'));
    return { ...common, task, problem: traj.length === 0 ? 'the trajectory is empty' : null };
  } catch (e) {
    return { ...common, problem: (e as Error).message };
  }
}

function safeRepr(x: PyValue): string {
  try {
    return pyRepr(x).slice(0, 200);
  } catch {
    return `<${typeName(x)}>`;
  }
}
