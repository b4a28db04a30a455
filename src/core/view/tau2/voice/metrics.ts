/**
 * τ²'s voice interaction metrics, computed offline from a full-duplex simulation's ticks as
 * `tau2.metrics.voice_interaction_metrics` computes them (τ² v1.0.1, metrics version 1.0): speech segments, response and
 * yield events, agent interruptions, and the selectivity events of backchannels, vocal tics and speech not directed at
 * the agent; per simulation, and pooled over a run as `compute_interaction_metrics_for_experiment` pools them.
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
function outOfTurnEffects(ticks: readonly Tau2Tick[], dt: number): AudioEffectSegment[] {
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

/** The metric panel (compute_interaction_metrics_for_experiment's dict). */
export interface InteractionMetrics {
  readonly response_latency_mean: number | null;
  readonly yield_latency_mean: number | null;
  readonly response_rate: number | null;
  readonly yield_rate: number | null;
  readonly agent_interruption_rate: number | null;
  readonly selectivity_backchannel: number | null;
  readonly selectivity_vocal_tic: number | null;
  readonly selectivity_non_directed: number | null;
  readonly counts: {
    readonly n_simulations: number;
    readonly response_total: number;
    readonly yield_total: number;
    readonly backchannel_total: number;
    readonly vocal_tic_total: number;
    readonly non_directed_total: number;
    readonly agent_interrupts_count: number;
  };
}

// Python parity: numpy's pairwise summation (np.add.reduce on float64: the identity 0.0, then blocks of 8 partial sums
// up to 128 values, halves above), as pandas' Series.mean sums.
function pairwiseSum(a: readonly number[], lo: number, n: number): number {
  if (n < 8) {
    let r = 0;
    for (let i = 0; i < n; i++) r += a[lo + i]!;
    return r;
  }
  if (n <= 128) {
    const r = [0, 1, 2, 3, 4, 5, 6, 7].map((j) => a[lo + j]!);
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j]! += a[lo + i + j]!;
    let res = r[0]! + r[1]! + (r[2]! + r[3]!) + (r[4]! + r[5]! + (r[6]! + r[7]!));
    for (; i < n; i++) res += a[lo + i]!;
    return res;
  }
  let n2 = Math.trunc(n / 2);
  n2 -= n2 % 8;
  return pairwiseSum(a, lo, n2) + pairwiseSum(a, lo + n2, n - n2);
}
const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : (0 + pairwiseSum(xs, 0, xs.length)) / xs.length);
const rate = (num: number, den: number): number | null => (den > 0 ? num / den : null);

/**
 * The panel over simulations pooled (one simulation: its own panel): null with the reason where τ² raises — no
 * simulation with ticks (NoVoiceTicksError), or ticks without a single scored event (τ²'s "Expected a single metrics
 * row" RuntimeError).
 */
// Python parity: compute_interaction_metrics_for_experiment with compute_voice_quality_metrics.
export function interactionMetrics(
  simulations: readonly { readonly ticks?: readonly Tau2Tick[] | null }[],
  c: InteractionMetricsConfig = DEFAULT_INTERACTION_CONFIG,
): { metrics: InteractionMetrics; error: null } | { metrics: null; error: string } {
  const withTicks = simulations.filter((s) => (s.ticks?.length ?? 0) > 0);
  if (withTicks.length === 0)
    return {
      metrics: null,
      error: 'No tick-bearing simulations found — interaction metrics require full-duplex (voice) trajectories.',
    };
  const per = withTicks.map((s) => voiceQualityEvents(s.ticks!, c));
  const events = per.flatMap((p) => p.events);
  if (events.length === 0) return { metrics: null, error: 'Expected a single metrics row for one experiment, got 0 (no scored event in any simulation)' };
  const count = (t: VoiceEventType): number => events.filter((e) => e.event_type === t).length;
  const latencies = (t: VoiceEventType): number[] => events.filter((e) => e.event_type === t && e.latency_sec !== null).map((e) => e.latency_sec!);
  const response = count('response') + count('no_response');
  const yields = count('yield') + count('no_yield');
  const bc = count('backchannel_correct') + count('backchannel_error');
  const tic = count('vocal_tic_correct') + count('vocal_tic_error');
  const nd = count('non_directed_correct') + count('non_directed_error');
  const correct = (errors: number, total: number): number | null => {
    const r = rate(errors, total);
    return r === null ? null : 1.0 - r;
  };
  const interrupts = per.reduce((s, p) => s + p.agentInterrupts, 0);
  return {
    error: null,
    metrics: {
      response_latency_mean: mean(latencies('response')),
      yield_latency_mean: mean(latencies('yield')),
      response_rate: rate(count('response'), response),
      yield_rate: rate(count('yield'), yields),
      agent_interruption_rate: rate(interrupts, response),
      selectivity_backchannel: correct(count('backchannel_error'), bc),
      selectivity_vocal_tic: correct(count('vocal_tic_error'), tic),
      selectivity_non_directed: correct(count('non_directed_error'), nd),
      counts: {
        n_simulations: withTicks.length,
        response_total: response,
        yield_total: yields,
        backchannel_total: bc,
        vocal_tic_total: tic,
        non_directed_total: nd,
        agent_interrupts_count: interrupts,
      },
    },
  };
}

const sec = (x: number | null): string => (x === null ? '–' : `${x.toFixed(2)} s`);
const frac = (x: number | null): string => (x === null ? '–' : x.toFixed(3));

/** The panel in one line of words (the CLI's and the report's). */
export function interactionMetricsText(r: { metrics: InteractionMetrics | null; error: string | null }): string {
  const m = r.metrics;
  if (m === null) return `interaction metrics: none (${r.error})`;
  const c = m.counts;
  return `interaction metrics (τ²'s, from the ticks of ${c.n_simulations} simulation${c.n_simulations === 1 ? '' : 's'}): response latency ${sec(
    m.response_latency_mean,
  )}, yield latency ${sec(m.yield_latency_mean)}, response rate ${frac(m.response_rate)} of ${c.response_total} user turns, yield rate ${frac(
    m.yield_rate,
  )} of ${c.yield_total} interruptions, agent interruptions ${frac(m.agent_interruption_rate)} per turn (${c.agent_interrupts_count}), selectivity backchannel ${frac(
    m.selectivity_backchannel,
  )} (${c.backchannel_total}) · vocal tic ${frac(m.selectivity_vocal_tic)} (${c.vocal_tic_total}) · non-directed ${frac(m.selectivity_non_directed)} (${c.non_directed_total})`;
}
