/** The records of a τ² evaluation, one per check and per replayed call (what τ²'s own evaluator records). */
import type { TDict } from '../../py/pydantic';
import type { ToolType } from '../../model/domains/tau2/toolkit';
import type { EnvFunctionCall, Requestor, Tau2Action } from '../../model/episode/tau2/types';

export interface DbHashes {
  readonly goldAgent: string | null;
  readonly predictedAgent: string | null;
  readonly goldUser: string | null;
  readonly predictedUser: string | null;
}

export interface EnvAssertionCheck {
  readonly assertion: EnvFunctionCall;
  readonly met: boolean;
  readonly reward: number;
  /** The assertion raised instead of answering (τ² would stop the evaluation there). */
  readonly error: string | null;
}

export interface ActionCheck {
  readonly action: Tau2Action;
  readonly actionMatch: boolean;
  readonly actionReward: number;
  readonly toolType: ToolType | null;
  /** Index (in `toolCalls`) of the first call that matched. */
  readonly matchedCall: number | null;
}

export interface CommunicateCheck {
  readonly info: string;
  readonly met: boolean;
  readonly justification: string;
  /** Index of the message it was found in (a full-duplex simulation: of `Tau2Evaluation.spoken`, the merged agent speech). */
  readonly messageIndex: number | null;
}

export interface NlAssertionRecord {
  readonly assertion: string;
  readonly met: boolean | null;
  readonly justification: string | null;
  /** Always true: taken from the file, judged by an LLM when the run was made. */
  readonly recorded: true;
}

export interface ReplayedCall {
  readonly index: number;
  readonly messageIndex: number;
  readonly id: string;
  readonly name: string;
  readonly requestor: Requestor;
  readonly arguments: TDict;
  readonly knownTool: boolean;
  readonly mutating: boolean;
  /** What τ²'s environment returns for it on a replay of every call in order (an unknown tool: its error); null for a retrieval call. */
  readonly output: string | null;
  readonly error: boolean;
  readonly recordedOutput: string | null;
  /** τ² v1.0.1's evaluator re-executes only known, mutating calls. */
  readonly evaluatorReplayed: boolean;
  /** A full-duplex simulation: the `tick_id` of the tick the call was made in. */
  readonly tickId?: number;
  /** A retrieval call (banking_knowledge's knowledge-base search, shell): never replayed, its output is what the file recorded. */
  readonly retrieval?: true;
  /**
   * Its answer quotes τ²'s docstrings (banking_knowledge's unlock and give), which tau-inspect does not carry:
   * 'recorded' — every other part of the replayed answer agrees with the recorded one, so `output` is the recorded
   * answer; 'differs' — it does not, and `output` shows DOCSTRING_SHOWN in the docstring's places.
   */
  readonly docstring?: 'recorded' | 'differs';
}
