/**
 * The dialogue of a full-duplex (voice) simulation as a reader wants it: the message history τ² derives from the ticks
 * holds the tool calls and their results only (FullDuplexEnvironmentEvaluator.ticks_to_message_history), so the words
 * said between them are put back — each speaker's chunks merged into turns as τ²'s communicate check merges the agent's
 * (merge_message_chunks), each turn at its first tick — interleaved with the history's messages in tick order. The
 * turns are speech taken from the ticks: no message of the replayed history, no step of the step cursor.
 */
import type { TickRange, VoiceSpeaker, VoiceTranscriptLine } from './evidence';

/** One turn of speech, merged from its speaker's chunks. */
export interface VoiceSpeechTurn extends TickRange {
  readonly speaker: VoiceSpeaker;
  readonly text: string;
  /** Seconds from the first tick to this turn's first tick, and to the end of its last. */
  readonly startSec: number;
  readonly endSec: number;
  /** The ticks of its chunks. */
  readonly ticks: readonly number[];
}

/** An entry of a voice simulation's dialogue: a turn of speech, or a message of the history (its index in `messages`). */
export type VoiceDialogueEntry = { readonly kind: 'speech'; readonly turn: VoiceSpeechTurn } | { readonly kind: 'message'; readonly index: number };

/**
 * The transcript's turns (sorted by first tick, as `voiceTimeline` makes it) and the history's messages (each at the
 * tick it comes from, `messageTicks`) in one list by tick; a turn that begins in the tick of a call comes before it
 * (what is said in a tick is heard while the tool is called), and a message whose tick is unknown keeps its place after
 * the message before it.
 */
export function voiceDialogue(
  transcript: readonly VoiceTranscriptLine[],
  messageTicks: readonly number[],
  messages: number,
  timing: { readonly firstTick: number; readonly tickSeconds: number },
): VoiceDialogueEntry[] {
  const sec = (tick: number): number => (tick - timing.firstTick) * timing.tickSeconds;
  const turns = transcript.map((l): VoiceSpeechTurn => ({
    speaker: l.speaker,
    text: l.text,
    start: l.start,
    end: l.end,
    startSec: sec(l.start),
    endSec: sec(l.end),
    ticks: l.ticks,
  }));
  const out: VoiceDialogueEntry[] = [];
  let t = 0;
  let last = -Infinity;
  for (let m = 0; m < messages; m++) {
    const at = messageTicks[m] ?? last;
    last = at;
    while (t < turns.length && turns[t]!.start <= at) out.push({ kind: 'speech', turn: turns[t++]! });
    out.push({ kind: 'message', index: m });
  }
  while (t < turns.length) out.push({ kind: 'speech', turn: turns[t++]! });
  return out;
}
