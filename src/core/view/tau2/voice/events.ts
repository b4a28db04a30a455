/**
 * τ²'s voice interaction metrics, the scored events of a simulation (`tau2.metrics.voice_interaction_metrics`, τ²
 * v1.0.1): responses and yields at turn transitions, interruptions, and the selectivity events of backchannels, vocal
 * tics and speech not directed at the agent, from the speech segments of segments.ts.
 */
import type { Tau2Chunk, Tau2Tick } from '../../../model/episode/tau2/types';
import {
  type InteractionMetricsConfig,
  DEFAULT_INTERACTION_CONFIG,
  type AudioEffectSegment,
  type SpeechSegment,
  filterEndOfConversationTicks,
  speechSegments,
  outOfTurnEffects,
} from './segments';

export type VoiceEventType =
  | 'response'
  | 'no_response'
  | 'yield'
  | 'no_yield'
  | 'backchannel_correct'
  | 'backchannel_error'
  | 'vocal_tic_correct'
  | 'vocal_tic_error'
  | 'non_directed_correct'
  | 'non_directed_error';

/** One scored moment of a simulation (VoiceQualityEvent). */
export interface VoiceQualityEvent {
  readonly event_category: 'response' | 'yield' | 'backchannel' | 'vocal_tic' | 'non_directed';
  readonly event_type: VoiceEventType;
  readonly is_error: boolean;
  /** Response latency (user turn end → agent start) or yield latency (interruption start → agent stops), seconds. */
  readonly latency_sec: number | null;
  readonly event_time_sec: number;
  /** The tick's position in the (filtered) list. */
  readonly event_tick: number;
  readonly transcript: string;
}

interface InterruptionEvent {
  readonly event_type: string;
  readonly start_tick: number;
  readonly start_time_sec: number;
  readonly transcript: string;
  readonly yielded: boolean;
  readonly yield_time_sec: number;
}

// Python parity: extract_turn_transitions — for each user turn that ended with the agent silent (backchannels and
// turns the agent still talks over left out), whether the agent spoke before the user spoke again.
function turnTransitions(user: readonly SpeechSegment[], agent: readonly SpeechSegment[]): VoiceQualityEvent[] {
  const valid = user.filter((u) => !u.is_backchannel && !(u.is_interruption && u.other_speaking_at_end) && !u.other_speaking_at_end);
  const sorted = [...agent].sort((a, b) => a.start_tick - b.start_tick);
  const out: VoiceQualityEvent[] = [];
  valid.forEach((u, i) => {
    const nextAgent = sorted.find((a) => a.start_tick >= u.end_tick) ?? null;
    const nextUser = valid.slice(i + 1).find((n) => n.start_tick >= u.end_tick) ?? null;
    const base = { event_category: 'response' as const, event_time_sec: u.end_time_sec, event_tick: u.end_tick, transcript: u.transcript };
    if (nextAgent !== null && (nextUser === null || nextAgent.start_tick <= nextUser.start_tick))
      out.push({ ...base, event_type: 'response', is_error: false, latency_sec: nextAgent.start_time_sec - u.end_time_sec });
    else if (nextUser !== null) out.push({ ...base, event_type: 'no_response', is_error: true, latency_sec: null });
  });
  return out;
}

const ticksIn = (sec: number, dt: number): number => Math.trunc(sec / dt);

// Python parity: extract_interruption_events (the user segments that start during agent speech, classified backchannel >
// vocal tic > non-directed speech > interruption; agent segments that start during user speech; segments with a vocal
// tic or non-directed speech during agent silence; out-of-turn effects), sorted by start tick (stable).
function interruptionEvents(
  user: readonly SpeechSegment[],
  agent: readonly SpeechSegment[],
  ticks: readonly Tau2Tick[],
  c: InteractionMetricsConfig,
  outOfTurn: readonly AudioEffectSegment[],
): InterruptionEvent[] {
  const dt = c.tick_duration_sec;
  const noYield = ticksIn(c.no_yield_window_sec, dt);
  const events: InterruptionEvent[] = [];
  const firstSilent = (start: number, window: number, side: (t: Tau2Tick) => Tau2Chunk | null): number | null => {
    for (let i = start; i < Math.min(start + window, ticks.length); i++) if (!(side(ticks[i]!)?.containsSpeech ?? false)) return i;
    return null;
  };
  // Python parity: `(yield_tick - start_tick) * tick if yield_tick else 0.0` — a yield at tick 0 counts 0.0.
  const yieldSec = (at: number | null, start: number): number => (at ? (at - start) * dt : 0.0);
  for (const u of user) {
    if (!u.other_speaking_at_start) continue;
    const [type, window] = u.is_backchannel
      ? ['backchannel', ticksIn(c.backchannel_yield_window_sec, dt)]
      : u.has_vocal_tic
        ? ['vocal_tic', ticksIn(c.vocal_tic_yield_window_sec, dt)]
        : u.has_non_directed_speech
          ? ['non_directed_speech', ticksIn(c.non_directed_yield_window_sec, dt)]
          : ['user_interrupts_agent', noYield];
    const at = firstSilent(u.start_tick, window as number, (t) => t.agentChunk);
    events.push({
      event_type: type as string,
      start_tick: u.start_tick,
      start_time_sec: u.start_time_sec,
      transcript: u.transcript,
      yielded: at !== null,
      yield_time_sec: yieldSec(at, u.start_tick),
    });
  }
  for (const a of agent) {
    if (!a.other_speaking_at_start) continue;
    const at = firstSilent(a.start_tick, noYield, (t) => t.userChunk);
    events.push({
      event_type: 'agent_interrupts_user',
      start_tick: a.start_tick,
      start_time_sec: a.start_time_sec,
      transcript: a.transcript,
      yielded: at !== null,
      yield_time_sec: yieldSec(at, a.start_tick),
    });
  }
  const responded = (from: number, until: number): SpeechSegment | null => agent.find((a) => a.start_tick >= from && a.start_tick <= until) ?? null;
  // A vocal tic or non-directed speech while the agent is silent: an error when the agent starts within the response
  // window after it, else correct.
  const whileSilent = (tic: boolean, x: { start_tick: number; end_tick: number; start_time_sec: number }, transcript: string): void => {
    const kind = tic ? 'vocal_tic' : 'non_directed';
    const a = responded(x.start_tick, x.end_tick + ticksIn(tic ? c.vocal_tic_response_window_sec : c.non_directed_response_window_sec, dt));
    events.push(
      a !== null
        ? {
            event_type: `agent_responds_to_${kind}`,
            start_tick: a.start_tick,
            start_time_sec: a.start_time_sec,
            transcript: a.transcript,
            yielded: true,
            yield_time_sec: 0.0,
          }
        : { event_type: `${kind}_silent_correct`, start_tick: x.start_tick, start_time_sec: x.start_time_sec, transcript, yielded: false, yield_time_sec: 0.0 },
    );
  };
  for (const u of user) if (!u.other_speaking_at_start && (u.has_vocal_tic || u.has_non_directed_speech)) whileSilent(u.has_vocal_tic, u, u.transcript);
  for (const e of outOfTurn) {
    if (e.effect_type !== 'non_directed_speech' && e.effect_type !== 'vocal_tic') continue;
    const tic = e.effect_type === 'vocal_tic';
    const during = agent.find((a) => a.start_tick <= e.start_tick && e.start_tick < a.end_tick) ?? null;
    if (during !== null) {
      const after = (during.end_tick - e.start_tick) * dt;
      if (after <= (tic ? c.vocal_tic_yield_window_sec : c.non_directed_yield_window_sec))
        events.push({
          event_type: tic ? 'vocal_tic' : 'non_directed_speech',
          start_tick: e.start_tick,
          start_time_sec: e.start_time_sec,
          transcript: e.text ?? '',
          yielded: true,
          yield_time_sec: after,
        });
      continue;
    }
    whileSilent(tic, e, e.text ?? '');
  }
  return events.sort((x, y) => x.start_tick - y.start_tick);
}

// Python parity: the interruption events as extract_voice_quality_events_from_simulation scores them.
function scored(ie: InterruptionEvent): VoiceQualityEvent | null {
  const at = { event_time_sec: ie.start_time_sec, event_tick: ie.start_tick, transcript: ie.transcript, latency_sec: null };
  switch (ie.event_type) {
    case 'user_interrupts_agent':
      return ie.yielded
        ? { ...at, event_category: 'yield', event_type: 'yield', is_error: false, latency_sec: ie.yield_time_sec }
        : { ...at, event_category: 'yield', event_type: 'no_yield', is_error: true };
    case 'backchannel':
      return { ...at, event_category: 'backchannel', event_type: ie.yielded ? 'backchannel_error' : 'backchannel_correct', is_error: ie.yielded };
    case 'vocal_tic':
      return { ...at, event_category: 'vocal_tic', event_type: ie.yielded ? 'vocal_tic_error' : 'vocal_tic_correct', is_error: ie.yielded };
    case 'non_directed_speech':
      return { ...at, event_category: 'non_directed', event_type: ie.yielded ? 'non_directed_error' : 'non_directed_correct', is_error: ie.yielded };
    case 'agent_responds_to_vocal_tic':
      return { ...at, event_category: 'vocal_tic', event_type: 'vocal_tic_error', is_error: true };
    case 'vocal_tic_silent_correct':
      return { ...at, event_category: 'vocal_tic', event_type: 'vocal_tic_correct', is_error: false };
    case 'agent_responds_to_non_directed':
      return { ...at, event_category: 'non_directed', event_type: 'non_directed_error', is_error: true };
    case 'non_directed_silent_correct':
      return { ...at, event_category: 'non_directed', event_type: 'non_directed_correct', is_error: false };
    default:
      return null; // agent_interrupts_user: counted apart (I_A), no quality event
  }
}

/** A simulation's scored events and its agent-interrupts-user count. */
export interface VoiceSimulationEvents {
  readonly events: readonly VoiceQualityEvent[];
  readonly agentInterrupts: number;
}

// Python parity: extract_voice_quality_events_from_simulation (events sorted by time, stably) and, for I_A,
// _count_agent_interruptions (agent segments that start while the user speaks).
export function voiceQualityEvents(ticks: readonly Tau2Tick[], c: InteractionMetricsConfig = DEFAULT_INTERACTION_CONFIG): VoiceSimulationEvents {
  const kept = filterEndOfConversationTicks(ticks);
  const { user, agent } = speechSegments(ticks, c.tick_duration_sec);
  const events = [
    ...turnTransitions(user, agent),
    ...interruptionEvents(user, agent, kept, c, outOfTurnEffects(kept, c.tick_duration_sec)).flatMap((e) => scored(e) ?? []),
  ].sort((x, y) => x.event_time_sec - y.event_time_sec);
  return { events, agentInterrupts: agent.filter((a) => a.other_speaking_at_start).length };
}
