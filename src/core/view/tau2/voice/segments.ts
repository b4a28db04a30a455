/**
 * τ²'s voice interaction metrics, their first half (`tau2.metrics.voice_interaction_metrics`, τ² v1.0.1): the
 * configuration, and a full-duplex simulation's ticks read as speech segments of either party and audio effects.
 * Ticks are counted by their position in the list (as τ² does), seconds are positions × the configured tick length.
 */
import type { TDict, TValue } from '../../../py/pydantic';
import type { Tau2Chunk, Tau2Tick } from '../../../model/episode/tau2/types';

/** Detection windows and tick length (InteractionMetricsConfig; the defaults are τ²'s). */
export interface InteractionMetricsConfig {
  readonly tick_duration_sec: number;
  readonly no_yield_window_sec: number;
  readonly backchannel_yield_window_sec: number;
  readonly vocal_tic_yield_window_sec: number;
  readonly non_directed_yield_window_sec: number;
  readonly vocal_tic_response_window_sec: number;
  readonly non_directed_response_window_sec: number;
}

export const INTERACTION_METRICS_VERSION = '1.0';

export const DEFAULT_INTERACTION_CONFIG: InteractionMetricsConfig = {
  tick_duration_sec: 0.2,
  no_yield_window_sec: 2.0,
  backchannel_yield_window_sec: 1.0,
  vocal_tic_yield_window_sec: 1.0,
  non_directed_yield_window_sec: 1.0,
  vocal_tic_response_window_sec: 2.0,
  non_directed_response_window_sec: 2.0,
};

const isDict = (v: TValue | undefined): v is TDict => v instanceof Map;
const num = (v: TValue | undefined): number | null => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null);

// Python parity: compute_interaction_metrics.resolve_experiment_config — the tick length of the run's audio-native
// config when it records a non-zero one, else the default.
export function interactionConfigOf(info: TDict): InteractionMetricsConfig {
  const audio = info.get('audio_native_config');
  const tick = isDict(audio) ? num(audio.get('tick_duration_seconds')) : null;
  return tick ? { ...DEFAULT_INTERACTION_CONFIG, tick_duration_sec: tick } : DEFAULT_INTERACTION_CONFIG;
}

/** An audio effect over consecutive ticks (AudioEffectSegment). */
export interface AudioEffectSegment {
  readonly effect_type: 'burst_noise' | 'vocal_tic' | 'non_directed_speech' | 'muffling';
  start_tick: number;
  end_tick: number;
  readonly text: string | null;
  readonly file_path: string | null;
  readonly is_muffled: boolean;
  start_time_sec: number;
  end_time_sec: number;
  duration_sec: number;
}

/** A contiguous stretch of one party's speech (UserSpeechSegment / AgentSpeechSegment, the fields the metrics read). */
export interface SpeechSegment {
  readonly role: 'user' | 'agent';
  readonly start_tick: number;
  end_tick: number;
  readonly start_time_sec: number;
  end_time_sec: number;
  duration_sec: number;
  transcript: string;
  readonly utterance_ids: string[];
  /** The other party was speaking in the segment's first tick. */
  readonly other_speaking_at_start: boolean;
  other_speaking_at_end: boolean;
  /** User: the turn-taking action of the first tick (`backchannel`, `keep_talking`, …); agent: ''. */
  readonly action: string;
  /** User: started while the agent was speaking, and not a backchannel. */
  readonly is_interruption: boolean;
  readonly is_backchannel: boolean;
  audio_effects: AudioEffectSegment[];
  has_vocal_tic: boolean;
  has_non_directed_speech: boolean;
}

interface ActiveEffect {
  readonly effect_type: AudioEffectSegment['effect_type'];
  readonly text: string | null;
  readonly file_path: string | null;
  readonly is_muffled: boolean;
}

const same = (a: ActiveEffect, b: ActiveEffect): boolean => a.effect_type === b.effect_type && a.text === b.text && a.file_path === b.file_path;

const speaking = (c: Tau2Chunk | null): boolean => c !== null && c.containsSpeech;

// Python parity: _get_active_effects_from_chunk (source effects: burst noise, speech insert; speech effects: muffling,
// speech insert — a vocal tic or, for any other insert type, non-directed speech; muffled when a non-directed phrase).
function activeEffects(chunk: Tau2Chunk | null): ActiveEffect[] {
  const out: ActiveEffect[] = [];
  if (chunk === null) return out;
  const insert = (v: TValue | undefined): void => {
    if (!isDict(v)) return;
    const type = v.get('type');
    out.push({
      effect_type: type === 'vocal_tic' ? 'vocal_tic' : 'non_directed_speech',
      text: typeof v.get('text') === 'string' ? (v.get('text') as string) : null,
      file_path: null,
      is_muffled: type === 'non_directed_phrase',
    });
  };
  const source = chunk.raw.get('source_effects');
  if (isDict(source)) {
    const burst = source.get('burst_noise_file');
    if (typeof burst === 'string' && burst !== '') out.push({ effect_type: 'burst_noise', text: null, file_path: burst, is_muffled: false });
    insert(source.get('speech_insert'));
  }
  const speech = chunk.raw.get('speech_effects');
  if (isDict(speech)) {
    if (speech.get('dynamic_muffling_enabled') === true) out.push({ effect_type: 'muffling', text: null, file_path: null, is_muffled: true });
    insert(speech.get('speech_insert'));
  }
  return out;
}

const startEffect = (a: ActiveEffect, i: number, dt: number): AudioEffectSegment => ({
  ...a,
  start_tick: i,
  end_tick: i + 1,
  start_time_sec: i * dt,
  end_time_sec: (i + 1) * dt,
  duration_sec: dt,
});

// Python parity: _update_audio_effect_segments.
function updateEffects(
  segments: AudioEffectSegment[],
  prev: readonly ActiveEffect[],
  curr: readonly ActiveEffect[],
  i: number,
  dt: number,
): AudioEffectSegment[] {
  const out = [...segments];
  const matched = curr.map(() => false);
  for (const p of prev) {
    const k = curr.findIndex((c, j) => !matched[j] && same(p, c));
    if (k < 0) continue;
    matched[k] = true;
    for (let s = out.length - 1; s >= 0; s--) {
      const seg = out[s]!;
      if (seg.effect_type === p.effect_type && seg.end_tick === i && seg.text === p.text && seg.file_path === p.file_path) {
        seg.end_tick = i + 1;
        seg.end_time_sec = (i + 1) * dt;
        seg.duration_sec = seg.end_time_sec - seg.start_time_sec;
        break;
      }
    }
  }
  curr.forEach((c, j) => {
    if (!matched[j]) out.push(startEffect(c, i, dt));
  });
  return out;
}

// Python parity: extract_user_segments / extract_agent_segments with _create_*_segment_start, _extend_*_segment and
// _finalize_segment (text: the chunk's content, else an agent chunk's raw_data proportional_transcript).
function segmentsOf(ticks: readonly Tau2Tick[], role: 'user' | 'agent', dt: number): SpeechSegment[] {
  const mine = (t: Tau2Tick): Tau2Chunk | null => (role === 'user' ? t.userChunk : t.agentChunk);
  const other = (t: Tau2Tick): Tau2Chunk | null => (role === 'user' ? t.agentChunk : t.userChunk);
  const textOf = (c: Tau2Chunk | null): string => {
    if (c === null) return '';
    if (c.content) return c.content;
    const raw = c.raw.get('raw_data');
    if (role === 'agent' && isDict(raw)) {
      const p = raw.get('proportional_transcript');
      return typeof p === 'string' ? p : '';
    }
    return '';
  };
  const out: SpeechSegment[] = [];
  let cur: SpeechSegment | null = null;
  let prevActive: ActiveEffect[] = [];
  const finalize = (seg: SpeechSegment, end: number, endTick: Tau2Tick | null): void => {
    seg.end_tick = end;
    seg.duration_sec = (seg.end_tick - seg.start_tick) * dt;
    seg.end_time_sec = seg.start_time_sec + seg.duration_sec;
    if (endTick !== null && other(endTick) !== null) seg.other_speaking_at_end = other(endTick)!.containsSpeech;
    seg.has_vocal_tic = seg.audio_effects.some((e) => e.effect_type === 'vocal_tic');
    seg.has_non_directed_speech = seg.audio_effects.some((e) => e.effect_type === 'non_directed_speech');
    out.push(seg);
  };
  ticks.forEach((tick, i) => {
    const chunk = mine(tick);
    if (speaking(chunk)) {
      if (cur === null) {
        const action = role === 'user' ? (chunk!.turnTaking?.action ?? '') : '';
        const backchannel = action === 'backchannel';
        const otherAtStart = other(tick) !== null && other(tick)!.containsSpeech;
        prevActive = activeEffects(chunk);
        cur = {
          role,
          start_tick: i,
          end_tick: i + 1,
          start_time_sec: i * dt,
          end_time_sec: 0,
          duration_sec: 0,
          transcript: textOf(chunk),
          utterance_ids: [...(chunk!.utteranceIds ?? [])],
          other_speaking_at_start: otherAtStart,
          other_speaking_at_end: false,
          action,
          is_interruption: role === 'user' && otherAtStart && !backchannel,
          is_backchannel: backchannel,
          audio_effects: prevActive.map((a) => startEffect(a, i, dt)),
          has_vocal_tic: false,
          has_non_directed_speech: false,
        };
      } else {
        cur.end_tick = i + 1;
        cur.transcript += textOf(chunk);
        for (const id of chunk!.utteranceIds ?? []) if (!cur.utterance_ids.includes(id)) cur.utterance_ids.push(id);
        const active = activeEffects(chunk);
        cur.audio_effects = updateEffects(cur.audio_effects, prevActive, active, i, dt);
        prevActive = active;
      }
    } else if (cur !== null) {
      finalize(cur, i, tick);
      cur = null;
      prevActive = [];
    }
  });
  if (cur !== null) finalize(cur, ticks.length, null);
  return out;
}

// Python parity: filter_end_of_conversation_ticks — a last tick where the user speaks after a tick where they did not
// (the 1-tick segment ###STOP### leaves) is dropped.
export function filterEndOfConversationTicks(ticks: readonly Tau2Tick[]): readonly Tau2Tick[] {
  if (ticks.length < 2) return ticks;
  return speaking(ticks[ticks.length - 1]!.userChunk) && !speaking(ticks[ticks.length - 2]!.userChunk) ? ticks.slice(0, -1) : ticks;
}

/** The user's and the agent's speech segments (extract_all_segments: after the end-of-conversation filter). */
export function speechSegments(
  ticks: readonly Tau2Tick[],
  dt: number = DEFAULT_INTERACTION_CONFIG.tick_duration_sec,
): { user: SpeechSegment[]; agent: SpeechSegment[] } {
  const kept = filterEndOfConversationTicks(ticks);
  return { user: segmentsOf(kept, 'user', dt), agent: segmentsOf(kept, 'agent', dt) };
}

// Python parity: extract_out_of_turn_effects — effects on the user's side in ticks where the user is not speaking.
export function outOfTurnEffects(ticks: readonly Tau2Tick[], dt: number): AudioEffectSegment[] {
  let segs: AudioEffectSegment[] = [];
  let prev: ActiveEffect[] = [];
  ticks.forEach((tick, i) => {
    if (speaking(tick.userChunk)) {
      prev = [];
      return;
    }
    const curr = activeEffects(tick.userChunk);
    if (curr.length === 0) {
      prev = [];
      return;
    }
    segs = updateEffects(segs, prev, curr, i, dt);
    prev = curr;
  });
  return segs;
}
