/**
 * τ²-bench's results file as the evaluator needs it: tasks (with their evaluation criteria and
 * initial state) and simulations (messages, termination, the recorded reward info). Fields are
 * Python values as read by `json.loads` (`TValue`), kept as recorded.
 */
import type { TDict, TValue } from '../../../py/pydantic';
import type { Tau2Refusals } from './refusals';
import type { Tau2Judging } from './judging';

export type Requestor = 'assistant' | 'user';

export interface Tau2ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: TDict;
  readonly requestor: Requestor;
}

export interface Tau2Message {
  readonly role: string;
  readonly content: string | null;
  /** `tool_calls` of an assistant or user message; null when it has none (`is_tool_call()` is `tool_calls is not None`). */
  readonly toolCalls: readonly Tau2ToolCall[] | null;
  /** A tool message's id, requestor and error flag. */
  readonly id: string | null;
  readonly requestor: Requestor | null;
  readonly error: boolean;
  /** A `MultiToolMessage` (role tool, its `tool_messages` wrapped, no id of its own): τ²'s replay skips it where no call waits for an answer, refuses it where one does. */
  readonly multiTool?: true;
  /** A tool message a what-if inserted for its inserted call: nothing was recorded, so the replay compares nothing with it. */
  readonly unrecorded?: true;
}

export interface EnvFunctionCall {
  readonly envType: Requestor;
  readonly funcName: string;
  readonly arguments: TDict;
  /** Set for env assertions. */
  readonly assertValue: boolean | null;
  readonly message: string | null;
  /** The call as recorded, for reports. */
  readonly raw: TDict;
}

export interface Tau2Action {
  readonly actionId: string;
  readonly requestor: Requestor;
  readonly name: string;
  readonly arguments: TDict;
  readonly info: string | null;
  readonly compareArgs: readonly string[] | null;
  readonly raw: TDict;
}

export type RewardType = 'DB' | 'ENV_ASSERTION' | 'NL_ASSERTION' | 'ACTION' | 'COMMUNICATE';

export interface Tau2Criteria {
  readonly actions: readonly Tau2Action[] | null;
  readonly envAssertions: readonly EnvFunctionCall[] | null;
  readonly communicateInfo: readonly string[] | null;
  readonly nlAssertions: readonly string[] | null;
  readonly rewardBasis: readonly RewardType[];
}

export interface Tau2Task {
  readonly id: string;
  readonly initializationData: { readonly agentData: TDict | null; readonly userData: TDict | null } | null;
  readonly initializationActions: readonly EnvFunctionCall[] | null;
  readonly messageHistory: readonly Tau2Message[];
  readonly criteria: Tau2Criteria | null;
  readonly raw: TDict;
  /** What τ²'s models refuse in this task (tau2-refusals.ts): `blocking` — its criteria or initial state, its simulations are not evaluable. */
  readonly refusals: Tau2Refusals;
}

export interface Tau2Simulation {
  readonly index: number;
  readonly id: string;
  readonly taskId: string;
  readonly trial: TValue;
  readonly terminationReason: string;
  readonly messages: readonly Tau2Message[];
  /** `messages` is null or absent (τ² v1.0.x allows it): τ²'s evaluator then has no trajectory, and any check that reads one raises. */
  readonly noMessages?: true;
  /** A full-duplex (voice) simulation: τ² judges its `ticks`, not its messages. */
  readonly fullDuplex: boolean;
  /**
   * A full-duplex simulation's ticks as recorded (null when it has none). Its `messages` are then the history τ² derives
   * from them (`ticksToMessageHistory`: the tool calls and their results, tick by tick), not the recorded `messages`.
   */
  readonly ticks?: readonly Tau2Tick[] | null;
  /** Per message of a full-duplex simulation's derived `messages`: the `tick_id` of the tick it comes from. */
  readonly messageTicks?: readonly number[];
  /** `reward_info` as recorded (null when absent). */
  readonly rewardInfo: TDict | null;
  /** The simulation as recorded (for its fingerprint and a shared link). */
  readonly raw: TDict;
  /**
   * The LLM reviews τ² recorded with the simulation when it was made (`review`, `user_only_review`,
   * `auth_classification`, `hallucination_check`, `hallucination_retries_used`), those present and not
   * null, in that order; never recomputed.
   */
  readonly reviews: readonly (readonly [string, TValue])[];
  /** What τ²'s pydantic models refuse in a part of this simulation the verdict reads (it is then not evaluable), first found; null when none. */
  readonly invalid: string | null;
  /** Everything τ²'s models refuse in this simulation, sorted by whether a verdict reads it (tau2-refusals.ts). */
  readonly refusals: Tau2Refusals;
}

/** A streaming chunk of a full-duplex simulation (τ²'s `AssistantMessage` / `UserMessage` in a tick), the fields its evaluators and metrics read. */
export interface Tau2Chunk {
  readonly role: Requestor;
  readonly content: string | null;
  /** `tool_calls`; null when absent (`is_tool_call()` is `tool_calls is not None`: an empty list is a tool call). */
  readonly toolCalls: readonly Tau2ToolCall[] | null;
  readonly isAudio: boolean;
  readonly timestamp: string | null;
  readonly utteranceIds: readonly string[] | null;
  readonly chunkId: number | null;
  readonly isFinalChunk: boolean;
  readonly containsSpeech: boolean;
  /** `turn_taking_action` (`action`, `info`), null when absent. */
  readonly turnTaking: { readonly action: string; readonly info: string | null } | null;
  /** The chunk as recorded (audio effects, raw_data: what the interaction metrics read). */
  readonly raw: TDict;
}

/** One tick of a full-duplex simulation (τ²'s `Tick`). */
export interface Tau2Tick {
  readonly tickId: number;
  readonly timestamp: string;
  readonly agentChunk: Tau2Chunk | null;
  readonly userChunk: Tau2Chunk | null;
  readonly agentToolCalls: readonly Tau2ToolCall[];
  readonly userToolCalls: readonly Tau2ToolCall[];
  readonly agentToolResults: readonly Tau2Message[];
  readonly userToolResults: readonly Tau2Message[];
  /** `tick_duration_seconds` as recorded (null when absent). */
  readonly durationSeconds: number | null;
}

export interface Tau2Run {
  readonly domain: string;
  /** Solo mode as the run was judged when it was made (`judging.runTime.solo`). */
  readonly soloMode: boolean;
  /** How the run was judged when it was made and how `tau2 evaluate-trajs` judges it (judging.ts). */
  readonly judging: Tau2Judging;
  readonly tasks: ReadonlyMap<string, Tau2Task>;
  readonly simulations: readonly Tau2Simulation[];
  /** Damage and oddities of the file, in words. */
  readonly notes: readonly string[];
  readonly info: TDict;
  /**
   * What τ² refuses in the file as a whole: `blocking` — a part of its info every verdict reads (domain, participants,
   * voice config); `first` — the first thing τ²'s `Results.load` refuses anywhere in it (τ² then reads none of it).
   */
  readonly refusal: { readonly blocking: string | null; readonly first: string | null };
}
