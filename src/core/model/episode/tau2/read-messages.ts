/**
 * Reading a τ²-bench results file, its messages and ticks (results.ts reads the rest): a message, a tool call, a
 * full-duplex tick and its chunks as the evaluator reads them, and the error a file τ² cannot be read as raises.
 */
import type { PyValue } from '../../../py/value';
import { defineModel, field, t, validate, validationErrors, type ModelClass, type PydModel, type TDict, type TValue } from '../../../py/pydantic';
import type { Requestor, Tau2Message, Tau2Chunk, Tau2Tick, Tau2ToolCall } from './types';

export class Tau2FileError extends Error {}

export const isDict = (v: TValue | undefined): v is TDict => v instanceof Map;
export const str = (v: TValue | undefined): string | null => (typeof v === 'string' ? v : null);
export const list = (v: TValue | undefined): readonly TValue[] | null => (Array.isArray(v) ? v : null);

/** Whether a parsed JSON root is a τ² results object. */
export const isTau2Root = (root: PyValue): boolean => root instanceof Map && root.has('simulations') && root.has('tasks');

export function requestorOf(v: TValue | undefined): Requestor {
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
export function readTick(v: TValue, where: string): Tau2Tick | null {
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
