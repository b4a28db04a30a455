/**
 * What τ²'s `Results.load` refuses in a results file, from its pydantic models (`tau2-models.ts`), sorted by
 * whether a verdict reads it:
 *
 * - **blocking**: a part the verdict is made from (a task's `evaluation_criteria` or `initial_state`, a
 *   simulation's messages as the replay and the checks read them, its task id, termination, ticks or mode; the
 *   run's domain, participants and voice config). The simulations it concerns are not evaluable: no verdict is
 *   made from a part that could not be read as τ² reads it.
 * - **nl**: the recorded `reward_info` a verdict takes NL assertion verdicts from: blocking only for a task whose
 *   reward counts NL assertions.
 * - **other**: a field τ² refuses that no verdict reads (a message's `cost`, a task's `user_scenario`, …). τ² loads
 *   no part of such a file; the verdict stands, marked "τ² would refuse this file".
 *
 * Each is said as pydantic says it: `<location from the Results root>: <message> [type=…, input_value=…, input_type=…]`.
 */
import { lineErrorText, validationErrors, type InputMode, type LineError, type ModelClass, type TDict, type TValue } from '../../../py/pydantic';
import { InfoModel, MESSAGE_MEMBERS, SimulationRunModel, TaskModel } from './models';

export interface Tau2Refusals {
  readonly blocking: string | null;
  readonly nl: string | null;
  readonly other: string | null;
}

export const NO_REFUSALS: Tau2Refusals = { blocking: null, nl: null, other: null };

type Kind = keyof Tau2Refusals;

const said = (prefix: readonly (string | number)[], e: LineError): string => `${[...prefix, ...e.loc].join('.')}: ${lineErrorText(e)}`;

function sorted(errors: readonly LineError[], prefix: readonly (string | number)[], kindOf: (e: LineError) => Kind | null): Tau2Refusals {
  const first = (kind: Kind): string | null => {
    const e = errors.find((x) => kindOf(x) === kind);
    return e === undefined ? null : said(prefix, e);
  };
  return { blocking: first('blocking'), nl: first('nl'), other: first('other') };
}

/** A task's parts the verdict reads: its id (how simulations find it), criteria and initial state. */
const TASK_READ = new Set(['id', 'evaluation_criteria', 'initial_state']);

// Python parity: Results.tasks[i] validated as tasks.Task.
export function taskRefusals(raw: TValue, index: number, mode: InputMode): Tau2Refusals {
  return sorted(validate(TaskModel, raw, mode), ['tasks', index], (e) => (e.loc.length === 0 || TASK_READ.has(String(e.loc[0])) ? 'blocking' : 'other'));
}

/** A simulation's fields the verdict reads (messages are sorted field by field below). */
const SIMULATION_READ = new Set(['task_id', 'termination_reason', 'ticks', 'mode']);
/** The fields of a message the replay and the checks read. */
const MESSAGE_READ = new Set(['role', 'content', 'tool_calls', 'id', 'requestor', 'tool_messages']);

/** The member of τ²'s `Message` union a message is meant as, by its role (null: no member fits its role). */
function memberFor(message: TValue): string | null {
  if (!(message instanceof Map)) return null;
  const role = message.get('role');
  if (role === 'system') return 'SystemMessage';
  if (role === 'assistant') return 'AssistantMessage';
  if (role === 'user') return 'UserMessage';
  if (role === 'tool') return message.has('id') || !message.has('tool_messages') ? 'ToolMessage' : 'MultiToolMessage';
  return null;
}

const MEMBER_NAMES = new Set(MESSAGE_MEMBERS.map((c) => c.name));

// Python parity: Results.simulations[i] validated as simulation.SimulationRun.
export function simulationRefusals(raw: TValue, index: number, mode: InputMode): Tau2Refusals {
  const messages = raw instanceof Map ? raw.get('messages') : undefined;
  const errors = validate(SimulationRunModel, raw, mode);
  // A message refused by every member of the union: only its own member's errors say what is wrong with it.
  const relevant = errors.filter((e) => {
    if (e.loc[0] !== 'messages' || e.loc.length < 3 || !MEMBER_NAMES.has(String(e.loc[2]))) return true;
    const own = memberFor(Array.isArray(messages) ? messages[Number(e.loc[1])]! : null);
    return own === null ? e === errors.find((x) => x.loc[0] === 'messages' && x.loc[1] === e.loc[1]) : e.loc[2] === own;
  });
  return sorted(relevant, ['simulations', index], (e) => {
    const top = String(e.loc[0] ?? '');
    if (e.loc.length === 0 || SIMULATION_READ.has(top)) return 'blocking';
    if (top === 'messages') {
      if (e.loc.length < 4) return 'blocking';
      const own = memberFor(Array.isArray(messages) ? messages[Number(e.loc[1])]! : null);
      return own === null || MESSAGE_READ.has(String(e.loc[3])) ? 'blocking' : 'other';
    }
    if (top === 'reward_info') return e.loc.length === 1 || e.loc[1] === 'nl_assertions' ? 'nl' : 'other';
    return 'other';
  });
}

/** The run's parts the verdict reads: the domain, who the agent and user are (solo mode), the voice config. */
function infoRead(loc: readonly (string | number)[]): boolean {
  const [top, sub] = loc.map(String);
  if (top === undefined || top === 'audio_native_config') return true;
  if (top === 'environment_info') return sub === undefined || sub === 'domain_name';
  if (top === 'agent_info' || top === 'user_info') return sub === undefined || sub === 'implementation';
  return false;
}

// Python parity: Results.info validated as simulation.Info (an absent info: Results' `info` Field required).
export function infoRefusals(root: TDict, mode: InputMode): Tau2Refusals {
  if (!root.has('info'))
    return {
      ...NO_REFUSALS,
      blocking: said([], { loc: ['info'], type: 'missing', msg: 'Field required', input: root }),
    };
  return sorted(validate(InfoModel, root.get('info')!, mode), ['info'], (e) => (infoRead(e.loc) ? 'blocking' : 'other'));
}

const validate = (cls: ModelClass, raw: TValue, mode: InputMode): readonly LineError[] => validationErrors(cls, raw, mode);

/** The first of several refusals (in the order τ² validates: info, tasks, simulations), or null. */
export const firstOf = (...xs: (string | null)[]): string | null => xs.find((x) => x !== null) ?? null;
