/**
 * Reads a τ²-bench results file (`{timestamp, info, tasks, simulations}`, v0.x and v1.0.x) into a
 * `Tau2Run`. Tasks come from the file. Fields τ² adds over time (τ³-era `simulation_index`, `mode`,
 * `ticks`, `review`, …) are kept in the raw records and ignored by the evaluator.
 */
import { jsonDumps } from '../../../py/json-dumps';
import { parseJson } from '../../../py/json-parse';
import { readDamagedTau2 } from './damaged';
import { ticksToMessageHistory } from './ticks';
import type { PyValue } from '../../../py/value';
import {
  defineModel,
  field,
  lineErrorText,
  t,
  validate,
  validationErrors,
  type InputMode,
  type ModelClass,
  type PydModel,
  type TDict,
  type TValue,
} from '../../../py/pydantic';
import { EnvAssertionModel, SimulationIndexEntryModel } from './models';
import { tau2JsonRefusal } from './json-limits';
import { tau2Judging } from './judging';
import { firstOf, infoRefusals, NO_REFUSALS, simulationRefusals, taskRefusals, type Tau2Refusals } from './refusals';
import type {
  EnvFunctionCall,
  Requestor,
  RewardType,
  Tau2Action,
  Tau2Criteria,
  Tau2Message,
  Tau2Run,
  Tau2Chunk,
  Tau2Simulation,
  Tau2Task,
  Tau2Tick,
  Tau2ToolCall,
} from './types';

export class Tau2FileError extends Error {}

const isDict = (v: TValue | undefined): v is TDict => v instanceof Map;
const str = (v: TValue | undefined): string | null => (typeof v === 'string' ? v : null);
const list = (v: TValue | undefined): readonly TValue[] | null => (Array.isArray(v) ? v : null);

/** Whether a parsed JSON root is a τ² results object. */
export const isTau2Root = (root: PyValue): boolean => root instanceof Map && root.has('simulations') && root.has('tasks');

function requestorOf(v: TValue | undefined): Requestor {
  return v === 'user' ? 'user' : 'assistant';
}

function toolCall(v: TValue, where: string): Tau2ToolCall {
  if (!isDict(v)) throw new Tau2FileError(`${where}: a tool call is not an object`);
  const args = v.get('arguments');
  return {
    id: str(v.get('id')) ?? '',
    name: str(v.get('name')) ?? '',
    arguments: isDict(args) ? args : new Map(),
    requestor: requestorOf(v.get('requestor')),
  };
}

/** A message as the evaluator reads it (what τ² refuses in it is found by `simulationRefusals`, from its models). */
export function readMessage(v: TValue, where: string): Tau2Message {
  if (!isDict(v)) throw new Tau2FileError(`${where}: not a message object`);
  const role = str(v.get('role')) ?? '';
  const calls = list(v.get('tool_calls'));
  // Python parity: the Message union — a tool message without an id is a MultiToolMessage when it has a `tool_messages` list, else invalid.
  const multiTool = role === 'tool' && !v.has('id') && list(v.get('tool_messages')) !== null;
  return {
    ...(multiTool ? { multiTool } : {}),
    role,
    content: str(v.get('content')),
    toolCalls: calls === null ? null : calls.filter(isDict).map((c, i) => toolCall(c, `${where}, tool call ${i}`)),
    id: role === 'tool' ? (str(v.get('id')) ?? '') : null,
    requestor: role === 'tool' ? requestorOf(v.get('requestor')) : null,
    error: v.get('error') === true,
  };
}

// Python parity: the scalar fields of AssistantMessage / UserMessage (ParticipantMessageBase) and Tick, pydantic 2 lax mode.
const chunkModel = (name: string, role: Requestor): ModelClass =>
  defineModel(name, [
    field('role', t.literal(role)),
    field('content', t.optional(t.str), { default: null }),
    field('is_audio', t.bool, { default: false }),
    field('turn_idx', t.optional(t.int), { default: null }),
    field('timestamp', t.optional(t.str), { default: null }),
    field('cost', t.optional(t.float), { default: null }),
    field('generation_time_seconds', t.optional(t.float), { default: null }),
    field('utterance_ids', t.optional(t.list(t.str)), { default: null }),
    field('chunk_id', t.optional(t.int), { default: null }),
    field('is_final_chunk', t.bool, { default: true }),
    field('source', t.optional(t.str), { default: null }),
    field('contains_speech', t.bool, { default: true }),
  ]);
const CHUNK_MODELS: Record<Requestor, ModelClass> = { assistant: chunkModel('AssistantMessage', 'assistant'), user: chunkModel('UserMessage', 'user') };
const TickScalars = defineModel('Tick', [
  field('tick_id', t.int),
  field('timestamp', t.str),
  field('user_transcript', t.optional(t.str), { default: null }),
  field('tick_duration_seconds', t.optional(t.float), { default: null }),
  field('wall_clock_duration_seconds', t.optional(t.float), { default: null }),
]);

/**
 * `v` validated as `model` (its declared fields, coerced as pydantic coerces them), or null: what pydantic refuses in a
 * tick is the simulation's refusal (`simulationRefusals`, from τ²'s models), which makes it not evaluable.
 */
function scalars(model: ModelClass, v: TDict): PydModel | null {
  return validationErrors(model, v).length === 0 ? validate(model, v) : null;
}

// Python parity: AssistantMessage / UserMessage in a Tick (Optional: null or absent is no chunk).
function readChunk(v: TValue | undefined, role: Requestor, where: string): Tau2Chunk | null {
  if (v === undefined || v === null || !isDict(v)) return null;
  const m = scalars(CHUNK_MODELS[role], v);
  const calls = list(v.get('tool_calls'));
  const tta = v.get('turn_taking_action');
  const ids = m?.get('utterance_ids');
  const num = m?.get('chunk_id');
  return {
    role,
    content: str(m?.get('content') ?? v.get('content')),
    toolCalls: calls === null ? null : calls.filter(isDict).map((c, i) => toolCall(c, `${where}, tool call ${i}`)),
    isAudio: m?.get('is_audio') === true,
    timestamp: str(m?.get('timestamp')),
    utteranceIds: Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : null,
    chunkId: typeof num === 'bigint' ? Number(num) : typeof num === 'number' ? num : null,
    isFinalChunk: m === null || m.get('is_final_chunk') === true,
    containsSpeech: m === null || m.get('contains_speech') === true,
    turnTaking: isDict(tta) ? { action: str(tta.get('action')) ?? '', info: str(tta.get('info')) } : null,
    raw: v,
  };
}

// Python parity: Tick (data_model/message.py), validated by pydantic 2 as part of SimulationRun.ticks.
function readTick(v: TValue, where: string): Tau2Tick | null {
  if (!isDict(v)) return null;
  const m = scalars(TickScalars, v);
  const listOf = <T>(k: string, read: (x: TValue, w: string) => T): T[] => {
    // Python parity: list fields with a default_factory — absent is empty (null is refused: the simulation's refusal).
    const xs = v.has(k) ? v.get(k)! : [];
    return Array.isArray(xs) ? xs.filter(isDict).map((x, i) => read(x, `${where}, ${k} ${i}`)) : [];
  };
  const calls = (k: string): Tau2ToolCall[] => listOf(k, (c, w) => toolCall(c, w));
  // Python parity: list[ToolMessage] — a tool message with its own id (anything else is the simulation's refusal).
  const results = (k: string): Tau2Message[] => listOf(k, (msg, w) => readMessage(msg, w));
  const id = m?.get('tick_id');
  const dur = m?.get('tick_duration_seconds');
  return {
    tickId: typeof id === 'bigint' ? Number(id) : typeof id === 'number' ? id : 0,
    timestamp: str(m?.get('timestamp')) ?? '',
    agentChunk: readChunk(v.get('agent_chunk'), 'assistant', `${where}, agent_chunk`),
    userChunk: readChunk(v.get('user_chunk'), 'user', `${where}, user_chunk`),
    agentToolCalls: calls('agent_tool_calls'),
    userToolCalls: calls('user_tool_calls'),
    agentToolResults: results('agent_tool_results'),
    userToolResults: results('user_tool_results'),
    durationSeconds: typeof dur === 'number' ? dur : null,
  };
}

function envCall(v: TValue, where: string): EnvFunctionCall {
  if (!isDict(v)) throw new Tau2FileError(`${where}: not an object`);
  const args = v.get('arguments');
  const av = v.get('assert_value');
  return {
    envType: requestorOf(v.get('env_type')),
    funcName: str(v.get('func_name')) ?? '',
    arguments: isDict(args) ? args : new Map(),
    assertValue: typeof av === 'boolean' ? av : v.has('assert_value') ? null : null,
    message: str(v.get('message')),
    raw: v,
  };
}

function action(v: TValue, where: string): Tau2Action {
  if (!isDict(v)) throw new Tau2FileError(`${where}: not an object`);
  const args = v.get('arguments');
  const ca = list(v.get('compare_args'));
  return {
    actionId: str(v.get('action_id')) ?? '',
    requestor: requestorOf(v.get('requestor')),
    name: str(v.get('name')) ?? '',
    arguments: isDict(args) ? args : new Map(),
    info: str(v.get('info')),
    compareArgs: ca === null ? null : ca.filter((x): x is string => typeof x === 'string'),
    raw: v,
  };
}

const REWARD_TYPES = new Set(['DB', 'ENV_ASSERTION', 'NL_ASSERTION', 'ACTION', 'COMMUNICATE']);

/** The criteria as the evaluator reads them; only ever judged from when τ²'s models read them too (see tau2-refusals.ts). */
function criteria(v: TValue | undefined, where: string): Tau2Criteria | null {
  if (!isDict(v)) return null;
  const actions = list(v.get('actions'));
  const envAssertions = list(v.get('env_assertions'));
  const info = list(v.get('communicate_info'));
  const nl = list(v.get('nl_assertions'));
  const basis = list(v.get('reward_basis')) ?? ['DB', 'COMMUNICATE'];
  const dicts = (xs: readonly TValue[] | null): TDict[] | null => (xs === null ? null : xs.filter(isDict));
  return {
    actions: dicts(actions)?.map((a, i) => action(a, `${where}, action ${i}`)) ?? null,
    // pydantic's lax bool: an assert_value written "false" or 0 is False.
    envAssertions:
      dicts(envAssertions)?.map((a, i) => {
        const call = envCall(a, `${where}, env assertion ${i}`);
        return validationErrors(EnvAssertionModel, a).length === 0
          ? { ...call, assertValue: validate(EnvAssertionModel, a).get('assert_value') as boolean }
          : call;
      }) ?? null,
    communicateInfo: info === null ? null : info.map((x) => (typeof x === 'string' ? x : String(x))),
    nlAssertions: nl === null ? null : nl.map((x) => (typeof x === 'string' ? x : String(x))),
    rewardBasis: basis.filter((b): b is RewardType => typeof b === 'string' && REWARD_TYPES.has(b)),
  };
}

export function readTask(v: TValue, where: string, index = 0, mode: InputMode = 'python'): Tau2Task {
  if (!isDict(v)) throw new Tau2FileError(`${where}: not an object`);
  const id = str(v.get('id'));
  if (id === null) throw new Tau2FileError(`${where}: no "id"`);
  const init = v.get('initial_state');
  const initDict = isDict(init) ? init : null;
  const data = initDict?.get('initialization_data');
  const actions = list(initDict?.get('initialization_actions'));
  const history = list(initDict?.get('message_history'));
  return {
    id,
    initializationData: isDict(data)
      ? {
          agentData: isDict(data.get('agent_data')) ? (data.get('agent_data') as TDict) : null,
          userData: isDict(data.get('user_data')) ? (data.get('user_data') as TDict) : null,
        }
      : null,
    initializationActions: actions === null ? null : actions.filter(isDict).map((a, i) => envCall(a, `${where}, initialization action ${i}`)),
    messageHistory: (history ?? []).filter(isDict).map((m, i) => readMessage(m, `${where}, history message ${i}`)),
    criteria: criteria(v.get('evaluation_criteria'), `task ${id}`),
    raw: v,
    refusals: taskRefusals(v, index, mode),
  };
}

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
  if (index !== null) {
    // Python parity: Path.stem (the name without its last suffix).
    const onDisk = new Set(simulationTexts.map((s) => s.name.replace(/\.json$/, '')));
    const indexed = new Set(index.map((e) => (isDict(e) ? e.get('id') : undefined)).filter((id): id is string => typeof id === 'string'));
    const missing = [...indexed].filter((id) => !onDisk.has(id)).sort();
    const unlisted = [...onDisk].filter((id) => !indexed.has(id)).sort();
    const said = (ids: string[]): string => ids.slice(0, 5).join(', ') + (ids.length > 5 ? ` and ${ids.length - 5} more` : '');
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
  return { ...run, notes: [...notes, ...run.notes] };
}

/**
 * The τ² run in a file's text, or null when the text is not a τ² results object (a τ-bench file).
 * A text that names τ²'s fields but is not valid JSON is a damaged τ² file: `Tau2FileError` says where.
 */
export function readTau2Text(text: string): Tau2Run | null {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (!start.startsWith('{')) return null;
  let root: PyValue;
  try {
    root = parseJson(text.replace(/^\uFEFF/, ''));
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
  return isTau2Root(root) ? readTau2Results(root, { mode: 'json', jsonRefusal: tau2JsonRefusal(text) }) : null;
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
