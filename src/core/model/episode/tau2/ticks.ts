/**
 * What τ²'s evaluators derive from a full-duplex (voice) simulation's ticks: the message history the environment
 * replays (`FullDuplexEnvironmentEvaluator.ticks_to_message_history`) and the agent's speech merged into messages for
 * the communicate check (`FullDuplexCommunicateEvaluator.ticks_to_message_history` with `merge_message_chunks`).
 */
import { PyException } from '../../../py/errors';
import { mergeAudioCheck } from './chunk-audio';
import type { Tau2Chunk, Tau2Message, Tau2Tick, Tau2ToolCall } from './types';

/** The message history of a full-duplex simulation, with the tick each message comes from. */
export interface TickHistory {
  readonly messages: readonly Tau2Message[];
  /** Per message: the `tick_id` of its tick. */
  readonly ticks: readonly number[];
}

const callMessage = (role: 'user' | 'assistant', chunk: Tau2Chunk | null, calls: readonly Tau2ToolCall[]): Tau2Message => ({
  role,
  content: chunk?.content ?? null,
  toolCalls: calls,
  id: null,
  requestor: null,
  error: false,
});

// Python parity: FullDuplexEnvironmentEvaluator.ticks_to_message_history — per tick, the user's tool calls (one
// UserMessage carrying them and the user chunk's text) and their results first, then the agent's and theirs; a tick
// without tool calls adds nothing, whatever was said in it.
export function ticksToMessageHistory(ticks: readonly Tau2Tick[]): TickHistory {
  const messages: Tau2Message[] = [];
  const at: number[] = [];
  const add = (m: Tau2Message, tick: number): void => {
    messages.push(m);
    at.push(tick);
  };
  for (const tick of ticks) {
    if (tick.userToolCalls.length > 0) {
      add(callMessage('user', tick.userChunk, tick.userToolCalls), tick.tickId);
      for (const r of tick.userToolResults) add(r, tick.tickId);
    }
    if (tick.agentToolCalls.length > 0) {
      add(callMessage('assistant', tick.agentChunk, tick.agentToolCalls), tick.tickId);
      for (const r of tick.agentToolResults) add(r, tick.tickId);
    }
  }
  return { messages, ticks: at };
}

/** Every tool call of the ticks in τ²'s order (per tick: the user's, then the agent's), with its tick. */
// Python parity: FullDuplexActionEvaluator.extract_tool_calls.
export function tickToolCalls(ticks: readonly Tau2Tick[]): { call: Tau2ToolCall; tickId: number }[] {
  return ticks.flatMap((t) => [...t.userToolCalls, ...t.agentToolCalls].map((call) => ({ call, tickId: t.tickId })));
}

/** One message of the agent's speech as τ²'s communicate check reads it: consecutive chunks merged. */
export interface MergedSpeech {
  /** The merged text (a lone chunk's own content, null when it has none). */
  readonly content: string | null;
  /** The ticks of its chunks, in order. */
  readonly ticks: readonly number[];
  /** Per chunk: its text and where it starts in `content` (null: an empty chunk, skipped by the merge). */
  readonly parts: readonly { readonly tickId: number; readonly text: string; readonly at: number | null; readonly utteranceIds: readonly string[] }[];
  /** The utterance ids of its chunks, first seen first. */
  readonly utteranceIds: readonly string[];
}

const idSet = (c: Tau2Chunk): Set<string> => new Set(c.utteranceIds ?? []);
const disjoint = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => {
  for (const x of a) if (b.has(x)) return false;
  return true;
};
const pyBoolList = (xs: readonly boolean[]): string => `[${xs.map((x) => (x ? 'True' : 'False')).join(', ')}]`;

// Python parity: merge_message_chunks (data_model/message.py) — the text joined with no separator, one space between
// two non-empty chunks whose utterance ids are both given and disjoint; empty chunks skipped (they do not reset the ids
// the next chunk is compared with). Audio is not merged here, but where its merge raises, this raises (mergeAudioCheck).
function mergeChunks(group: readonly { chunk: Tau2Chunk; tickId: number }[]): MergedSpeech {
  if (group.some((g) => g.chunk.isAudio !== group[0]!.chunk.isAudio))
    throw new PyException('ValueError', `All chunks must be either audio or non-audio. Found mixed types: ${pyBoolList(group.map((g) => g.chunk.isAudio))}`);
  mergeAudioCheck(group.map((g) => g.chunk));
  let content = '';
  let prev = new Set<string>();
  const parts: { tickId: number; text: string; at: number | null; utteranceIds: readonly string[] }[] = [];
  const ids: string[] = [];
  for (const { chunk, tickId } of group) {
    for (const id of chunk.utteranceIds ?? []) if (!ids.includes(id)) ids.push(id);
    const text = chunk.content ?? '';
    if (text === '') {
      parts.push({ tickId, text, at: null, utteranceIds: chunk.utteranceIds ?? [] });
      continue;
    }
    const own = idSet(chunk);
    if (content !== '' && own.size > 0 && prev.size > 0 && disjoint(own, prev)) content += ' ';
    parts.push({ tickId, text, at: content.length, utteranceIds: chunk.utteranceIds ?? [] });
    content += text;
    prev = own;
  }
  return { content, ticks: group.map((g) => g.tickId), parts, utteranceIds: ids };
}

const lone = (chunk: Tau2Chunk, tickId: number): MergedSpeech => ({
  content: chunk.content,
  ticks: [tickId],
  parts: [{ tickId, text: chunk.content ?? '', at: chunk.content ? 0 : null, utteranceIds: chunk.utteranceIds ?? [] }],
  utteranceIds: chunk.utteranceIds ?? [],
});

// Python parity: FullDuplexCommunicateEvaluator.ticks_to_message_history — the agent's chunks that carry no tool call
// (`tool_calls` None; an empty list counts as a call), grouped while each next chunk's utterance ids overlap the
// group's (a chunk without ids stands alone); ticks without an agent chunk do not break a group. A group of one is the
// chunk itself; a longer one is merged (mergeChunks). Raises as merge_message_chunks does (mixed audio flags).
export function mergedAgentSpeech(ticks: readonly Tau2Tick[]): MergedSpeech[] {
  const chunks = ticks.flatMap((t) => (t.agentChunk !== null && t.agentChunk.toolCalls === null ? [{ chunk: t.agentChunk, tickId: t.tickId }] : []));
  const out: MergedSpeech[] = [];
  let group: { chunk: Tau2Chunk; tickId: number }[] = [];
  let ids = new Set<string>();
  const flush = (): void => {
    if (group.length === 1) out.push(lone(group[0]!.chunk, group[0]!.tickId));
    else if (group.length > 1) out.push(mergeChunks(group));
  };
  for (const c of chunks) {
    const own = idSet(c.chunk);
    if (group.length > 0 && ids.size > 0 && own.size > 0 && !disjoint(ids, own)) {
      group.push(c);
      for (const x of own) ids.add(x);
    } else {
      flush();
      group = [c];
      ids = own;
    }
  }
  flush();
  return out;
}
