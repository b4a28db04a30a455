import { parseJson } from '../../py/json-parse';
import { pyRepr } from '../../py/repr';
import { typeName, type PyDict, type PyValue } from '../../py/value';
import type { Action, EpisodeRecord, Task } from './types';

export class ResultsFileError extends Error {}

const num = (v: PyValue | undefined): number | null =>
  typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : null;

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
  if (!Array.isArray(outputs) || !outputs.every((o) => typeof o === 'string'))
    throw new Error(`info.task.outputs is not a list of strings`);
  const instruction = v.get('instruction');
  return {
    userId: v.get('user_id') ?? null,
    actions: actions.map((a, i) => readAction(a, `info.task.actions[${i}]`)),
    instruction: typeof instruction === 'string' ? instruction : '',
    outputs: outputs as string[],
  };
}

const KNOWN = new Set(['task_id', 'reward', 'info', 'traj', 'trial']);

/** Reads one `EnvRunResult`; never throws — problems end up in `problem`. */
export function readEpisode(v: PyValue, index: number): EpisodeRecord {
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
  for (const [k, x] of v) if (!KNOWN.has(k)) extra[k] = typeof x === 'string' ? x : pyRepr(x).slice(0, 200);
  const info = v.get('info');
  const infoMap = info instanceof Map ? info : null;
  const runErrorValue = infoMap?.get('error');
  const runError = runErrorValue === undefined || runErrorValue === null ? null : String(typeof runErrorValue === 'string' ? runErrorValue : pyRepr(runErrorValue));
  const trajValue = v.get('traj');
  const traj = Array.isArray(trajValue) ? trajValue.filter((m): m is PyDict => m instanceof Map) : [];
  const rewardInfo = infoMap?.get('reward_info');
  const common = {
    ...base,
    taskId: num(v.get('task_id')),
    trial: num(v.get('trial')),
    recordedReward: num(v.get('reward')),
    traj,
    runError,
    extra,
    recordedRewardInfo: rewardInfo instanceof Map ? rewardInfo : null,
  };
  if (!Array.isArray(trajValue)) return { ...common, problem: `traj is ${describe(trajValue)}, not a list` };
  if (traj.length !== trajValue.length) return { ...common, problem: 'traj holds a message that is not an object' };
  if (runError !== null && traj.length === 0)
    return { ...common, problem: `the run crashed before any trajectory was kept: ${runError.split('\n')[0]}` };
  try {
    const task = readTask(infoMap?.get('task'));
    return { ...common, task, problem: traj.length === 0 ? 'the trajectory is empty' : null };
  } catch (e) {
    return { ...common, problem: (e as Error).message };
  }
}

/**
 * Reads a results file: a list of episodes (run.py output), or a single episode object.
 * Throws ResultsFileError only when the file as a whole is unreadable.
 */
export function readResultsFile(text: string): EpisodeRecord[] {
  let root: PyValue;
  try {
    root = parseJson(text);
  } catch (e) {
    const msg = e instanceof Error && 'text' in e ? String((e as { text: string }).text) : String(e);
    throw new ResultsFileError(`not valid JSON: ${msg}`);
  }
  if (root instanceof Map) {
    if (root.has('traj') || root.has('info')) return [readEpisode(root, 0)];
    throw new ResultsFileError('a JSON object that is not a τ-bench episode (no "traj" or "info")');
  }
  if (!Array.isArray(root)) throw new ResultsFileError(`expected a list of episodes, got a ${typeName(root)}`);
  return root.map(readEpisode);
}
