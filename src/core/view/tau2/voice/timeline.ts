/**
 * A full-duplex (voice) simulation as plain, structured-cloneable data for a timeline screen: one lane per speaker (speech
 * segments with their utterances, the silences between), where both speak at once and who cut in, the tool calls and
 * their replayed results at their ticks, the transcript as τ² merges it, each communicate check with the merged text it
 * was found in or the nearest near miss, and τ²'s interaction metrics of the simulation.
 */
import { modelDump, pyJsonDumps } from '../../../py/pydantic';
import { mergedAgentSpeech, type MergedSpeech } from '../../../model/episode/tau2/ticks';
import type { Tau2Chunk, Tau2Tick } from '../../../model/episode/tau2/types';
import type { Tau2Evaluation } from '../../../judge/tau2/evaluate';
import { maskPydanticUrl } from '../report';
import { voiceDialogue, type VoiceDialogueEntry } from './dialogue';
import { communicateEvidence, mergedOf, speechLines, type VoiceCommunicate, type VoiceTranscriptLine } from './evidence';
import {
  DEFAULT_INTERACTION_CONFIG,
  interactionMetrics,
  speechSegments,
  voiceQualityEvents,
  type InteractionMetrics,
  type InteractionMetricsConfig,
  type SpeechSegment,
  type VoiceEventType,
} from './metrics';

import type { TickRange, VoiceSpeaker } from './evidence';

export type { VoiceDialogueEntry, VoiceSpeechTurn } from './dialogue';
export type { NearMissKind, TickRange, VoiceCommunicate, VoiceSpeaker, VoiceTranscriptLine } from './evidence';

export interface VoiceUtterance extends TickRange {
  readonly id: string | null;
  /** Its chunks' text merged as τ² merges chunks (merge_message_chunks). */
  readonly text: string;
}

export interface VoiceSegment extends TickRange {
  /** Seconds from the first tick (tick position × the tick length). */
  readonly startSec: number;
  readonly endSec: number;
  readonly text: string;
  readonly utteranceIds: readonly string[];
  /** It began while the other party was speaking. */
  readonly overlapsAtStart: boolean;
  /** The user's turn-taking action in its first tick (`interrupt`, `backchannel`, `keep_talking`, …); null for the agent. */
  readonly action: string | null;
  /** The agent's speech in it was marked cut off (`turn_taking_action` `interrupted`). */
  readonly cutOff: boolean;
}

export interface VoiceLane {
  readonly speaker: VoiceSpeaker;
  readonly segments: readonly VoiceSegment[];
  readonly utterances: readonly VoiceUtterance[];
  /** Stretches of this lane without speech, between the first and the last tick. */
  readonly silences: readonly TickRange[];
}

export interface VoiceInterruption {
  /** The tick the interrupter started in. */
  readonly tick: number;
  readonly by: VoiceSpeaker;
  /** As τ²'s metrics classify a user cutting in (backchannel > vocal tic > non-directed > interruption); the agent's: interruption. */
  readonly kind: 'interruption' | 'backchannel' | 'vocal_tic' | 'non_directed';
  /** The first tick the interrupted party is silent again (null: not before the end). */
  readonly stoppedAt: number | null;
}

export interface VoiceToolCall {
  readonly index: number;
  readonly tick: number | null;
  readonly requestor: string;
  readonly name: string;
  readonly arguments: string;
  readonly output: string | null;
  readonly error: boolean;
  readonly matchesRecorded: boolean | null;
}

export interface VoiceEventView {
  readonly type: VoiceEventType;
  readonly isError: boolean;
  readonly tick: number;
  readonly latencySec: number | null;
}

export interface VoiceTimelineView {
  readonly ticks: number;
  readonly firstTick: number;
  readonly lastTick: number;
  /** The tick length the metrics and the seconds use. */
  readonly tickSeconds: number;
  readonly lanes: readonly [VoiceLane, VoiceLane];
  /** Both speaking at once. */
  readonly overlaps: readonly TickRange[];
  /** Neither speaking. */
  readonly silences: readonly TickRange[];
  readonly interruptions: readonly VoiceInterruption[];
  readonly toolCalls: readonly VoiceToolCall[];
  readonly transcript: readonly VoiceTranscriptLine[];
  readonly communicate: readonly VoiceCommunicate[] | null;
  readonly events: readonly VoiceEventView[];
  readonly metrics: InteractionMetrics | null;
  readonly metricsError: string | null;
  /** Where τ² saves the simulation's audio, relative to the run folder (the first that exists is the one). */
  readonly audioPaths: readonly string[];
  /** The tick of each message of the history τ² derives from the ticks (by message index, as the simulation screen numbers them). */
  readonly messageTicks: readonly number[];
  /** The dialogue with its speech: the transcript's turns and the history's messages in tick order (`voiceDialogue`). */
  readonly dialogue: readonly VoiceDialogueEntry[];
}

const chunkOf = (t: Tau2Tick, who: VoiceSpeaker): Tau2Chunk | null => (who === 'agent' ? t.agentChunk : t.userChunk);

function ranges(ticks: readonly Tau2Tick[], on: (t: Tau2Tick) => boolean): TickRange[] {
  const out: TickRange[] = [];
  let start: number | null = null;
  ticks.forEach((t, i) => {
    if (on(t) && start === null) start = i;
    if (!on(t) && start !== null) {
      out.push({ start: ticks[start]!.tickId, end: t.tickId });
      start = null;
    }
  });
  if (start !== null) out.push({ start: ticks[start]!.tickId, end: ticks[ticks.length - 1]!.tickId + 1 });
  return out;
}

function utterances(ticks: readonly Tau2Tick[], who: VoiceSpeaker): VoiceUtterance[] {
  const out: { id: string | null; start: number; end: number; chunks: Tau2Tick[] }[] = [];
  for (const t of ticks) {
    const c = chunkOf(t, who);
    if (c === null || !c.containsSpeech) continue;
    const id = c.utteranceIds?.[0] ?? null;
    const last = out[out.length - 1];
    if (last && id !== null && last.id === id) {
      last.end = t.tickId + 1;
      last.chunks.push(t);
    } else out.push({ id, start: t.tickId, end: t.tickId + 1, chunks: [t] });
  }
  return out.map((u) => {
    let text = '';
    try {
      text = mergedOf(u.chunks, who)
        .map((m) => m.content ?? '')
        .join(' ');
    } catch {
      text = u.chunks.map((t) => chunkOf(t, who)?.content ?? '').join('');
    }
    return { id: u.id, start: u.start, end: u.end, text };
  });
}

function lane(ticks: readonly Tau2Tick[], who: VoiceSpeaker, segs: readonly SpeechSegment[], dt: number): VoiceLane {
  const id = (i: number): number => ticks[Math.min(i, ticks.length - 1)]!.tickId + (i >= ticks.length ? 1 : 0);
  const segments = segs.map((s) => ({
    start: id(s.start_tick),
    end: id(s.end_tick),
    startSec: s.start_tick * dt,
    endSec: s.end_time_sec,
    text: s.transcript,
    utteranceIds: s.utterance_ids,
    overlapsAtStart: s.other_speaking_at_start,
    action: who === 'user' ? s.action || null : null,
    cutOff: who === 'agent' && ticks.slice(s.start_tick, s.end_tick).some((t) => t.agentChunk?.turnTaking?.action === 'interrupted'),
  }));
  return { speaker: who, segments, utterances: utterances(ticks, who), silences: ranges(ticks, (t) => !(chunkOf(t, who)?.containsSpeech ?? false)) };
}

/** The timeline of a judged full-duplex simulation (null when it is not one or has no ticks). */
export function voiceTimeline(e: Tau2Evaluation, config: InteractionMetricsConfig = DEFAULT_INTERACTION_CONFIG): VoiceTimelineView | null {
  const s = e.simulation;
  const ticks = s.ticks;
  if (!s.fullDuplex || !ticks || ticks.length === 0) return null;
  const dt = config.tick_duration_sec;
  const segs = speechSegments(ticks, dt);
  const lanes: [VoiceLane, VoiceLane] = [lane(ticks, 'agent', segs.agent, dt), lane(ticks, 'user', segs.user, dt)];
  const speaks = (t: Tau2Tick, who: VoiceSpeaker): boolean => chunkOf(t, who)?.containsSpeech ?? false;
  const interruptions: VoiceInterruption[] = [];
  for (const [who, list] of [
    ['user', segs.user],
    ['agent', segs.agent],
  ] as const)
    for (const seg of list) {
      if (!seg.other_speaking_at_start) continue;
      const other: VoiceSpeaker = who === 'user' ? 'agent' : 'user';
      const stop = ticks.slice(seg.start_tick).find((t) => !speaks(t, other));
      interruptions.push({
        tick: ticks[seg.start_tick]!.tickId,
        by: who,
        kind:
          who === 'agent'
            ? 'interruption'
            : seg.is_backchannel
              ? 'backchannel'
              : seg.has_vocal_tic
                ? 'vocal_tic'
                : seg.has_non_directed_speech
                  ? 'non_directed'
                  : 'interruption',
        stoppedAt: stop?.tickId ?? null,
      });
    }
  interruptions.sort((a, b) => a.tick - b.tick);
  let agentSpeech: readonly MergedSpeech[] = [];
  try {
    agentSpeech = e.spoken ?? mergedAgentSpeech(ticks);
  } catch {
    agentSpeech = [];
  }
  const agentLines = speechLines(agentSpeech, 'agent');
  let userLines: VoiceTranscriptLine[] = [];
  try {
    userLines = speechLines(mergedOf(ticks, 'user'), 'user');
  } catch {
    userLines = [];
  }
  const transcript = [...agentLines, ...userLines].filter((l) => l.text.trim() !== '').sort((a, b) => a.start - b.start || (a.speaker === 'agent' ? -1 : 1));
  const communicate = communicateEvidence(e, agentSpeech, agentLines, userLines);
  const pooled = interactionMetrics([{ ticks }], config);
  const own = voiceQualityEvents(ticks, config);
  return {
    ticks: ticks.length,
    firstTick: ticks[0]!.tickId,
    lastTick: ticks[ticks.length - 1]!.tickId,
    tickSeconds: dt,
    lanes,
    overlaps: ranges(ticks, (t) => speaks(t, 'agent') && speaks(t, 'user')),
    silences: ranges(ticks, (t) => !speaks(t, 'agent') && !speaks(t, 'user')),
    interruptions,
    toolCalls: e.toolCalls.map((c) => ({
      index: c.index,
      tick: c.tickId ?? null,
      requestor: c.requestor,
      name: c.name,
      arguments: pyJsonDumps(modelDump(c.arguments)),
      output: c.output,
      error: c.error,
      matchesRecorded: c.output === null || c.recordedOutput === null ? null : maskPydanticUrl(c.output) === maskPydanticUrl(c.recordedOutput),
    })),
    transcript,
    communicate,
    events: own.events.map((ev) => ({
      type: ev.event_type,
      isError: ev.is_error,
      // Event ticks are positions in the list τ²'s metrics read (a turn's end may be the position after the last tick).
      tick: ticks[Math.min(ev.event_tick, ticks.length - 1)]!.tickId + (ev.event_tick >= ticks.length ? 1 : 0),
      latencySec: ev.latency_sec,
    })),
    metrics: pooled.metrics,
    metricsError: pooled.error,
    audioPaths: [`artifacts/task_${s.taskId}/sim_${s.id}/audio/both.wav`, `artifacts/task_${s.taskId}/sim_${s.id}/both.wav`],
    messageTicks: s.messageTicks ?? [],
    dialogue: voiceDialogue(transcript, s.messageTicks ?? [], s.messages.length, { firstTick: ticks[0]!.tickId, tickSeconds: dt }),
  };
}
