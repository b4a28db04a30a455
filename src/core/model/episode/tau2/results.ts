/**
 * Reads a τ²-bench results file (`{timestamp, info, tasks, simulations}`, v0.x and v1.0.x) into a
 * `Tau2Run`. Tasks come from the file. Fields τ² adds over time (τ³-era `simulation_index`, `mode`,
 * `ticks`, `review`, …) are kept in the raw records and ignored by the evaluator.
 */
import { jsonDumps } from '../../../py/json-dumps';
import { parseJson } from '../../../py/json-parse';
import { reprStr } from '../../../py/repr';
import { readDamagedTau2 } from './damaged';
import { ticksToMessageHistory } from './ticks';
import type { PyValue } from '../../../py/value';
import { defineModel, field, lineErrorText, t, validate, validationErrors, type InputMode, type TDict, type TValue } from '../../../py/pydantic';
import { SimulationIndexEntryModel } from './models';
import { tau2JsonRefusal, tau2JsonRefusalOf } from './json-limits';
import { tau2Judging } from './judging';
import { firstOf, infoRefusals, NO_REFUSALS, simulationRefusals, type Tau2Refusals } from './refusals';
import type { Tau2Run, Tau2Simulation, Tau2Task, Tau2Tick } from './types';
import { Tau2FileError, isDict, str, list, isTau2Root, readMessage, readTick } from './read-messages';
import { readTask } from './read-task';

export { isTau2Root, readMessage, Tau2FileError } from './read-messages';
export { readTask } from './read-task';

/** `SimulationRun.trial` as pydantic coerces it (a trial written "2" is 2). */
// Python parity: SimulationRun.trial (Optional[int], lax).
const TrialOf = defineModel('SimulationRun', [field('trial', t.optional(t.int), { default: null })]);

/** What pydantic refuses in Results' own fields: `timestamp` (Optional[str]) and `simulation_index`. */
// Python parity: Results.timestamp, Results.simulation_index (list[SimulationIndexEntry] | None).
function resultsRefusal(root: TDict, mode: InputMode): { timestamp: string | null; index: string | null } {
  const errors = validationErrors(ResultsOwnFields, root, mode);
  const at = (k: string): string | null => {
    const e = errors.find((x) => x.loc[0] === k);
    return e === undefined ? null : `${e.loc.join('.')}: ${lineErrorText(e)}`;
  };
  return { timestamp: at('timestamp'), index: at('simulation_index') };
}
const ResultsOwnFields = defineModel('Results', [
  field('timestamp', t.optional(t.str), { default: null }),
  field('simulation_index', t.optional(t.list(t.model(() => SimulationIndexEntryModel))), { default: null }),
]);

/**
 * Whether a run's `info` makes τ² judge every simulation of it as full duplex (voice): an audio-native
 * config, or the voice-streaming user simulator — voice runs saved before `SimulationRun.mode` existed,
 * or saved without ticks.
 */
// Python parity: evaluate_trajectories.get_communication_mode (the run-level signals).
export function fullDuplexRun(info: TDict): boolean {
  const user = info.get('user_info');
  return (info.get('audio_native_config') ?? null) !== null || (isDict(user) && user.get('implementation') === 'voice_streaming_user_simulator');
}

export function readSimulation(v: TValue, index: number, runFullDuplex = false, mode: InputMode = 'python'): Tau2Simulation {
  const where = `simulation ${index}`;
  if (!isDict(v)) throw new Tau2FileError(`${where}: not an object`);
  const messages = list(v.get('messages')) ?? [];
  const ri = v.get('reward_info');
  const refusals = simulationRefusals(v, index, mode);
  // Python parity: SimulationRun.messages is Optional (None by default) from v1.0.0; before, a required list.
  const noMessages = (v.get('messages') ?? null) === null;
  const ticks = v.get('ticks') ?? null;
  // Python parity: evaluate_trajectories.get_communication_mode (per simulation; the run's signals in `runFullDuplex`).
  const fullDuplex = runFullDuplex || v.get('mode') === 'full_duplex' || list(ticks) !== null;
  const tickList = list(ticks);
  const readTicks = tickList === null ? null : tickList.map((t, i) => readTick(t, `${where}, tick ${i}`)).filter((t): t is Tau2Tick => t !== null);
  // A full-duplex simulation is judged on its ticks (evaluate_simulation's trajectory): its messages are the history
  // τ² derives from them; without ticks it has no trajectory at all, whatever `messages` holds.
  const history = fullDuplex && readTicks !== null ? ticksToMessageHistory(readTicks) : null;
  const trialOk = validationErrors(TrialOf, v).length === 0;
  return {
    invalid: refusals.blocking,
    refusals,
    index,
    id: str(v.get('id')) ?? `#${index}`,
    taskId: str(v.get('task_id')) ?? '',
    trial: trialOk ? validate(TrialOf, v).get('trial') : (v.get('trial') ?? null),
    terminationReason: str(v.get('termination_reason')) ?? '',
    // A message that is not an object makes the simulation not evaluable (refusals.blocking): it is not read.
    messages: fullDuplex ? (history?.messages ?? []) : messages.filter(isDict).map((m, i) => readMessage(m, `${where}, message ${i}`)),
    ...((fullDuplex ? readTicks === null : noMessages) ? { noMessages: true as const } : {}),
    fullDuplex,
    ...(fullDuplex ? { ticks: readTicks, messageTicks: history?.ticks ?? [] } : {}),
    rewardInfo: isDict(ri) ? ri : null,
    raw: v,
    reviews: TAU2_REVIEW_FIELDS.flatMap((k) => {
      const r = v.get(k);
      // Python parity: Simulation.hallucination_retries_used defaults to 0 (nothing to show).
      return r === undefined || r === null || (k === 'hallucination_retries_used' && (r === 0n || r === 0)) ? [] : [[k, r] as const];
    }),
  };
}

/** The reviews a τ² simulation may carry, judged by an LLM when it was made (data_model/simulation.py, `Simulation`). */
export const TAU2_REVIEW_FIELDS = ['review', 'user_only_review', 'auth_classification', 'hallucination_check', 'hallucination_retries_used'] as const;

/**
 * Reads a whole τ² results object (parsed or as text). `mode`: how τ² would have read it — `json` for a one-file
 * results file (`model_validate_json`), `python` for a run folder (`json.loads`, then `model_validate`).
 * `jsonRefusal`: what pydantic's JSON parser refuses in the file's text (`tau2JsonRefusal`), τ² then reads none of it.
 */
export function readTau2Results(
  input: string | PyValue,
  options: { readonly damaged?: boolean; readonly mode?: InputMode; readonly jsonRefusal?: string | null } = {},
): Tau2Run {
  const mode = options.mode ?? (typeof input === 'string' ? 'json' : 'python');
  const root = (typeof input === 'string' ? parseJson(input) : input) as TValue;
  if (!isDict(root) || !isDict(root.get('info') ?? new Map()) || !list(root.get('simulations')) || !list(root.get('tasks')))
    throw new Tau2FileError('not a τ²-bench results file: expected an object with "tasks" and "simulations" lists');
  const info = (root.get('info') as TDict | undefined) ?? new Map();
  const notes: string[] = [];
  // A damaged file's info is only what could be found of it (and τ² reads no damaged file at all).
  const infoRefusal = options.damaged ? NO_REFUSALS : infoRefusals(root, mode);
  const rootRefusal = options.damaged ? null : resultsRefusal(root, mode);
  const tasks = new Map<string, Tau2Task>();
  (root.get('tasks') as TValue[]).forEach((t, i) => {
    if (t === null) return; // a damaged task, already named
    try {
      const task = readTask(t, `task ${i}`, i, mode);
      tasks.set(task.id, task);
    } catch (e) {
      notes.push(e instanceof Error ? e.message : String(e));
    }
  });
  const simulations: Tau2Simulation[] = [];
  const voice = fullDuplexRun(info);
  (root.get('simulations') as TValue[]).forEach((s, i) => {
    if (s === null) return; // a damaged simulation, already named
    try {
      simulations.push(readSimulation(s, i, voice, mode));
    } catch (e) {
      notes.push(e instanceof Error ? e.message : String(e));
    }
  });
  const all = (r: Tau2Refusals): string | null => firstOf(r.blocking, r.nl, r.other);
  // Python parity: pydantic reports Results' fields in order — timestamp, info, tasks, simulations, simulation_index.
  const jsonRefusal = options.jsonRefusal ?? (typeof input === 'string' ? tau2JsonRefusal(input) : null);
  const first = firstOf(
    jsonRefusal,
    rootRefusal?.timestamp ?? null,
    all(infoRefusal),
    ...[...tasks.values()].map((x) => all(x.refusals)),
    ...simulations.map((x) => all(x.refusals)),
    rootRefusal?.index ?? null,
  );
  if (first !== null) notes.push(`τ² refuses this results file: ${first}`);
  const env = info.get('environment_info');
  const domain = (isDict(env) ? str(env.get('domain_name')) : null) ?? '';
  // Solo mode as the run was judged when it was made (judging.ts: evaluate-trajs' is_solo_mode may differ, #502).
  const judging = tau2Judging(info);
  return { domain, soloMode: judging.runTime.solo, judging, tasks, simulations, notes, info, refusal: { blocking: infoRefusal.blocking, first } };
}

/**
 * The directory layout of a τ² run (`results.json` beside `simulations/<id>.json`, as τ²'s "dir" format
 * and leaderboard submissions store it). As τ²'s `Results.load` does, the simulations are the folder's
 * files, in name order; a `simulations` list inside results.json is read only when the folder has no
 * simulation files (τ² reads none of it either way: a note says so). When results.json carries a
 * `simulation_index`, τ² refuses a folder whose files are not exactly the indexed ids: a note names them.
 */
// Python parity: Results.load (dir format).
export function readTau2Folder(resultsText: string, simulationTexts: readonly { readonly name: string; readonly text: string }[]): Tau2Run {
  const root = parseJson(resultsText) as TValue;
  if (!isDict(root)) throw new Tau2FileError('results.json: not a τ²-bench results object');
  const own = list(root.get('simulations')) ?? [];
  const extra: TValue[] = [];
  const notes: string[] = [];
  for (const s of simulationTexts) {
    try {
      extra.push(parseJson(s.text) as TValue);
    } catch (e) {
      notes.push(`simulations/${s.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (simulationTexts.length > 0 && own.length > 0)
    notes.push(
      `results.json lists ${own.length} simulation${own.length === 1 ? '' : 's'} of its own beside simulations/: τ² reads a run folder's simulations from simulations/ only, and so does this reading`,
    );
  else if (own.length > 0) notes.push(`results.json holds the simulations and there is no simulations/ beside it: τ²'s run-folder reading would find none`);
  const index = list(root.get('simulation_index'));
  let integrity: string | null = null;
  if (index !== null) {
    // Python parity: Path.stem (the name without its last suffix).
    const onDisk = new Set(simulationTexts.map((s) => s.name.replace(/\.json$/, '')));
    const indexed = new Set(index.map((e) => (isDict(e) ? e.get('id') : undefined)).filter((id): id is string => typeof id === 'string'));
    const missing = [...indexed].filter((id) => !onDisk.has(id)).sort();
    const unlisted = [...onDisk].filter((id) => !indexed.has(id)).sort();
    const said = (ids: string[]): string => ids.slice(0, 5).join(', ') + (ids.length > 5 ? ` and ${ids.length - 5} more` : '');
    // Python parity: Results.load (dir format) raises this before it validates anything, so it is the refusal τ² gives.
    const pyList = (ids: string[]): string => `[${ids.map(reprStr).join(', ')}]`;
    if (missing.length > 0 || unlisted.length > 0)
      integrity = `Dir format integrity check failed for results.json: ${[
        missing.length > 0 ? `Missing simulation files: ${pyList(missing)}` : '',
        unlisted.length > 0 ? `Extra simulation files not in index: ${pyList(unlisted)}` : '',
      ]
        .filter((x) => x !== '')
        .join('; ')}`;
    if (missing.length > 0 || unlisted.length > 0)
      notes.push(
        `τ² refuses this run folder (its integrity check): ${[
          missing.length > 0
            ? `simulation_index lists ${missing.length} simulation${missing.length === 1 ? '' : 's'} without a file in simulations/ (${said(missing)})`
            : '',
          unlisted.length > 0
            ? `simulations/ holds ${unlisted.length} file${unlisted.length === 1 ? '' : 's'} not in simulation_index (${said(unlisted)})`
            : '',
        ]
          .filter((x) => x !== '')
          .join('; ')}`,
      );
  }
  const merged = new Map(root);
  merged.set('simulations', simulationTexts.length > 0 ? extra : [...own]);
  if (!merged.has('tasks')) merged.set('tasks', []);
  const run = readTau2Results(merged as PyValue, { mode: 'python' });
  return { ...run, notes: [...notes, ...run.notes], ...(integrity !== null ? { refusal: { ...run.refusal, first: integrity } } : {}) };
}

/**
 * The τ² run in a file's text, or null when the text is not a τ² results object (a τ-bench file).
 * A text that names τ²'s fields but is not valid JSON is a damaged τ² file: `Tau2FileError` says where.
 */
export function readTau2Text(text: string): Tau2Run | null {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (!start.startsWith('{')) return null;
  let root: PyValue;
  const deepest = { value: 0 };
  try {
    root = parseJson(text.replace(/^\uFEFF/, ''), { deepest });
  } catch (e) {
    if (!/"simulations"\s*:/.test(text) || !/"tasks"\s*:/.test(text)) return null;
    const damaged = readDamagedTau2(text.replace(/^\uFEFF/, ''));
    if (damaged === null)
      throw new Tau2FileError(
        `a τ²-bench results file that is not valid JSON: ${e instanceof Error && 'text' in e ? (e as { text: string }).text : String(e)}`,
      );
    const run = readTau2Results(damaged.root as PyValue, { damaged: true, mode: 'json' });
    return { ...run, notes: [...damaged.notes, ...run.notes] };
  }
  // Python parity: Results.load reads a one-file results file with model_validate_json (jiter), not json.loads.
  return isTau2Root(root) ? readTau2Results(root, { mode: 'json', jsonRefusal: tau2JsonRefusalOf(text, deepest.value) }) : null;
}

/**
 * One simulation as a τ² results file of its own (a shared link carries it): the run's `info`, the
 * simulation's task (when the file embeds it) and the simulation, as recorded — written as Python's
 * `json.dumps` writes them, so `1.0` stays a float and read back gives the same fingerprint.
 */
export function tau2SimulationJson(run: Tau2Run, index: number): string {
  const sim = run.simulations[index];
  if (sim === undefined) throw new RangeError(`no simulation ${index} (the file has ${run.simulations.length})`);
  const task = run.tasks.get(sim.taskId);
  const root: PyValue = new Map<string, PyValue>([
    ['info', run.info as PyValue],
    ['tasks', task ? [task.raw as PyValue] : []],
    ['simulations', [sim.raw as PyValue]],
  ]);
  return jsonDumps(root);
}
