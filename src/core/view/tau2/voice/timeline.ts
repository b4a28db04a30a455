/**
 * A full-duplex (voice) simulation as plain, structured-cloneable data for a timeline screen: one lane per speaker (speech
 * segments with their utterances, the silences between), where both speak at once and who cut in, the tool calls and
 * their replayed results at their ticks, the transcript as τ² merges it, each communicate check with the merged text it
 * was found in or the nearest near miss, and τ²'s interaction metrics of the simulation.
 */
import { pyLower } from '../../../py/lower';
import { modelDump, pyJsonDumps } from '../../../py/pydantic';
import { mergedAgentSpeech, type MergedSpeech } from '../../../model/episode/tau2-ticks';
import type { Tau2Chunk, Tau2Tick } from '../../../model/episode/tau2-types';
import type { Tau2Evaluation } from '../../../judge/tau2/evaluate';
import { maskPydanticUrl } from '../report';
import { communicateSpan } from '../sim-view';
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

export type VoiceSpeaker = 'agent' | 'user';

/** Ticks are named by their `tick_id`; `end` is exclusive (the first tick after). */
export interface TickRange {
  readonly start: number;
  readonly end: number;
}

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

export interface VoiceTranscriptLine extends TickRange {
  readonly speaker: VoiceSpeaker;
  readonly text: string;
  readonly utteranceIds: readonly string[];
  /** The ticks of its chunks. */
  readonly ticks: readonly number[];
}

export type NearMissKind = 'space-between-utterances' | 'split-across-messages' | 'said-by-user' | 'in-tool-output' | 'partial';

export interface VoiceCommunicate {
  readonly info: string;
  readonly met: boolean;
  /** Where τ² found it: the merged agent message (its index among the agent's merged messages), its text, the span and the ticks of the span's chunks. */
  readonly found: {
    readonly line: number;
    readonly text: string;
    readonly span: { start: number; end: number } | null;
    readonly ticks: readonly number[];
  } | null;
  /** Not found: the nearest miss, in words, with the text and ticks it is in. */
  readonly nearMiss: { readonly kind: NearMissKind; readonly text: string; readonly ticks: readonly number[]; readonly why: string } | null;
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

/** The chunks of a speaker grouped as τ² groups the agent's for its communicate check, each group merged. */
function mergedOf(ticks: readonly Tau2Tick[], who: VoiceSpeaker): MergedSpeech[] {
  if (who === 'agent') return mergedAgentSpeech(ticks);
  // The same rule on the user's chunks (moved to the agent's side, which is what mergedAgentSpeech reads).
  return mergedAgentSpeech(ticks.map((t) => ({ ...t, agentChunk: t.userChunk && { ...t.userChunk, isAudio: false } })));
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

const lowered = (s: string): string => pyLower(s).replaceAll(',', '');

/** Where an info τ² did not find comes closest to being said (see NearMissKind). */
function nearMiss(
  info: string,
  speech: readonly MergedSpeech[],
  agent: readonly VoiceTranscriptLine[],
  user: readonly VoiceTranscriptLine[],
  e: Tau2Evaluation,
): VoiceCommunicate['nearMiss'] {
  const needle = pyLower(info);
  if (needle === '') return null;
  for (const [i, m] of speech.entries()) {
    // The merge put a space where the utterance id changed: the chunks' texts joined without it hold the info.
    if (lowered(m.parts.map((p) => p.text).join('')).includes(needle))
      return {
        kind: 'space-between-utterances',
        text: agent[i]!.text,
        ticks: agent[i]!.ticks,
        why: `said across a change of utterance id: τ² merges those chunks with a space between, so '${info}' is not in the merged text`,
      };
  }
  for (let i = 0; i + 1 < agent.length; i++) {
    const [a, b] = [agent[i]!, agent[i + 1]!];
    for (const sep of ['', ' '])
      if (lowered(a.text + sep + b.text).includes(needle))
        return {
          kind: 'split-across-messages',
          text: `${a.text}${sep}${b.text}`,
          ticks: [...a.ticks, ...b.ticks],
          why: `split over two of the agent's messages (their utterance ids do not overlap, so τ² does not merge them): '${info}' is in neither`,
        };
  }
  const byUser = user.find((l) => lowered(l.text).includes(needle));
  if (byUser) return { kind: 'said-by-user', text: byUser.text, ticks: byUser.ticks, why: `said by the user, not the agent: τ² reads only the agent's speech` };
  const inTool = e.toolCalls.find((c) => c.output !== null && lowered(c.output).includes(needle));
  if (inTool)
    return {
      kind: 'in-tool-output',
      text: inTool.output!,
      ticks: inTool.tickId === undefined ? [] : [inTool.tickId],
      why: `only in the output of ${inTool.name} (call ${inTool.index + 1}), never said by the agent`,
    };
  // The agent message holding the longest start of the info.
  let best: { len: number; line: VoiceTranscriptLine } | null = null;
  for (const l of agent) {
    const hay = lowered(l.text);
    let len = 0;
    while (len < needle.length && hay.includes(needle.slice(0, len + 1))) len++;
    if (len > 0 && (best === null || len > best.len)) best = { len, line: l };
  }
  if (best === null || best.len < Math.min(3, needle.length)) return null;
  return {
    kind: 'partial',
    text: best.line.text,
    ticks: best.line.ticks,
    why: `the agent said '${info.slice(0, best.len)}' of it here, not the rest`,
  };
}

/** The ticks of the chunks a span of a merged message falls in. */
function ticksOfSpan(m: MergedSpeech, span: { start: number; end: number } | null): number[] {
  if (span === null) return [...m.ticks];
  return m.parts.filter((p) => p.at !== null && p.at < span.end && p.at + p.text.length > span.start).map((p) => p.tickId);
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
  const line = (who: VoiceSpeaker) => (m: MergedSpeech) => ({
    speaker: who,
    text: m.content ?? '',
    utteranceIds: m.utteranceIds,
    ticks: m.ticks,
    start: m.ticks[0]!,
    end: m.ticks[m.ticks.length - 1]! + 1,
  });
  const agentLines: VoiceTranscriptLine[] = agentSpeech.map(line('agent'));
  let userLines: VoiceTranscriptLine[] = [];
  try {
    userLines = mergedOf(ticks, 'user').map(line('user'));
  } catch {
    userLines = [];
  }
  const transcript = [...agentLines, ...userLines].filter((l) => l.text.trim() !== '').sort((a, b) => a.start - b.start || (a.speaker === 'agent' ? -1 : 1));
  const communicate =
    e.communicateChecks?.map((c) => {
      const m = c.messageIndex === null ? undefined : agentSpeech[c.messageIndex];
      if (c.met && m) {
        const span = communicateSpan(m.content ?? '', c.info);
        return { info: c.info, met: true, found: { line: c.messageIndex!, text: m.content ?? '', span, ticks: ticksOfSpan(m, span) }, nearMiss: null };
      }
      return { info: c.info, met: c.met, found: null, nearMiss: c.met ? null : nearMiss(c.info, agentSpeech, agentLines, userLines, e) };
    }) ?? null;
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
  };
}
