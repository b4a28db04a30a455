import { PyException } from '../../py/errors';
import { parseJson } from '../../py/json-parse';
import { contains, getItem, len } from '../../py/ops';
import { pyStrip } from '../../py/strip';
import { deepCopy, ownString, typeName, type PyDict, type PyValue } from '../../py/value';
import type { Action, AgentStep, Strategy } from './types';

export const RESPOND = 'respond';
export const API_OUTPUT_PREFIX = 'API output: ';

const content = (m: PyDict | undefined): PyValue | undefined => m?.get('content');

/**
 * The agent strategy of one episode: act/react agents put the tool list into the system
 * prompt (`#Available tools`), react's instruction asks for `Thought:`; everything else is
 * tool-calling (few-shot parses messages the same way).
 */
export function detectStrategy(traj: readonly PyDict[]): Strategy {
  const system = traj.find((m) => m.get('role') === 'system');
  const sys = content(system);
  if (typeof sys === 'string') {
    const at = sys.lastIndexOf('#Available tools');
    if (at >= 0) return sys.slice(at).includes('Thought:') ? 'react' : 'act';
    return 'tool-calling';
  }
  const agent = traj.filter((m) => m.get('role') === 'assistant');
  if (agent.some((m) => Array.isArray(m.get('tool_calls')) && (m.get('tool_calls') as PyValue[]).length > 0)) return 'tool-calling';
  const texts = agent.map(content).filter((c): c is string => typeof c === 'string');
  if (texts.some((t) => t.includes('Action:'))) return texts.some((t) => t.includes('Thought:')) ? 'react' : 'act';
  return 'tool-calling';
}

function pyExceptionText(e: unknown): string {
  if (e instanceof PyException) return `${e.pyType}: ${e.text}`;
  throw e;
}

/** pydantic's `Action(name=..., kwargs=...)` validation. */
function makeAction(name: PyValue, kwargs: PyValue): Action {
  if (typeof name !== 'string') throw new PyException('ValidationError', `Action.name: Input should be a valid string (got ${typeName(name)})`);
  if (!(kwargs instanceof Map)) throw new PyException('ValidationError', `Action.kwargs: Input should be a valid dictionary (got ${typeName(kwargs)})`);
  return { name, kwargs: new Map(kwargs) };
}

/** Tool-call arguments parsed lately, by their text (at most `ARGS_KEPT`, each at most `ARGS_TEXT` long). */
const parsedArguments = new Map<string, PyValue>();
const ARGS_KEPT = 2048;
const ARGS_TEXT = 1024;

/**
 * `json.loads` of a tool call's arguments. Agents pass the same arguments episode after episode (the same user,
 * reservation and order ids), so a text parsed lately is parsed once: each call gets a copy of its own (a tool may keep
 * or change what it is given), the same value a parse gives. A text that does not parse raises each time, kept nowhere.
 */
function parsedArgumentsOf(text: string): PyValue {
  if (text.length > ARGS_TEXT) return parseJson(text);
  let v = parsedArguments.get(text);
  if (v === undefined) {
    // Kept by a string of its own (a slice of the episode's text would keep the whole text).
    const own = ownString(text);
    v = parseJson(own);
    if (parsedArguments.size >= ARGS_KEPT) parsedArguments.delete(parsedArguments.keys().next().value!);
    parsedArguments.set(own, v);
  }
  return deepCopy(v);
}

// Python parity: tau_bench.agents.tool_calling_agent.message_to_action.
export function toolCallingAction(message: PyDict): Action {
  const calls = message.get('tool_calls');
  if (calls !== undefined && calls !== null && len(calls) > 0) {
    const call = getItem(calls, 0n);
    const fn = getItem(call, 'function');
    if (fn !== null) {
      const args = getItem(fn, 'arguments');
      if (typeof args !== 'string') throw new PyException('TypeError', `the JSON object must be str, bytes or bytearray, not ${typeName(args)}`);
      return makeAction(getItem(fn, 'name'), parsedArgumentsOf(args));
    }
  }
  return { name: RESPOND, kwargs: new Map([['content', getItem(message, 'content')]]) };
}

// Python parity: tau_bench.agents.chat_react_agent.ChatReActAgent.generate_next_step.
export function reactAction(message: PyDict): Action {
  const text = getItem(message, 'content');
  if (typeof text !== 'string') throw new PyException('AttributeError', `'${typeName(text)}' object has no attribute 'split'`);
  const parts = text.split('Action:');
  const actionStr = pyStrip(parts[parts.length - 1]!);
  let parsed: PyValue;
  try {
    parsed = parseJson(actionStr);
  } catch (e) {
    if (e instanceof PyException && e.pyType === 'JSONDecodeError') return { name: RESPOND, kwargs: new Map([['content', actionStr]]) };
    throw e;
  }
  if (!contains(parsed, 'name') || !contains(parsed, 'arguments')) throw new PyException('AssertionError', '');
  return makeAction(getItem(parsed, 'name'), getItem(parsed, 'arguments'));
}

/**
 * Turns a trajectory into agent steps: each agent message with the action τ-bench's agent
 * derives from it, and the observation the file recorded after it.
 */
export function agentSteps(traj: readonly PyDict[], strategy: Strategy): AgentStep[] {
  const steps: AgentStep[] = [];
  for (let i = 0; i < traj.length; i++) {
    const m = traj[i]!;
    if (m.get('role') !== 'assistant') continue;
    let action: Action | null = null;
    let crash: string | null = null;
    try {
      action = strategy === 'tool-calling' ? toolCallingAction(m) : reactAction(m);
    } catch (e) {
      crash = pyExceptionText(e);
    }
    const next = traj[i + 1];
    const nextRole = next?.get('role');
    let observationIndex: number | null = null;
    let recorded: string | null = null;
    if (next !== undefined && (nextRole === 'tool' || nextRole === 'user')) {
      observationIndex = i + 1;
      const c = next.get('content');
      recorded = typeof c === 'string' ? c : null;
      if (recorded !== null && strategy !== 'tool-calling' && action !== null && action.name !== RESPOND && recorded.startsWith(API_OUTPUT_PREFIX))
        recorded = recorded.slice(API_OUTPUT_PREFIX.length);
    }
    steps.push({ messageIndex: i, action, crash, observationIndex, recordedObservation: recorded });
  }
  return steps;
}
