/**
 * τ²'s voice interaction metrics, computed offline from a full-duplex simulation's ticks as
 * `tau2.metrics.voice_interaction_metrics` computes them (τ² v1.0.1, metrics version 1.0): speech segments, response and
 * yield events, agent interruptions, and the selectivity events of backchannels, vocal tics and speech not directed at
 * the agent; per simulation, and pooled over a run as `compute_interaction_metrics_for_experiment` pools them.
 * Ticks are counted by their position in the list (as τ² does), seconds are positions × the configured tick length.
 */
import type { Tau2Tick } from '../../../model/episode/tau2/types';
import { type InteractionMetricsConfig, DEFAULT_INTERACTION_CONFIG } from './segments';
import { type VoiceEventType, voiceQualityEvents } from './events';

export {
  DEFAULT_INTERACTION_CONFIG,
  INTERACTION_METRICS_VERSION,
  filterEndOfConversationTicks,
  interactionConfigOf,
  speechSegments,
  type AudioEffectSegment,
  type InteractionMetricsConfig,
  type SpeechSegment,
} from './segments';
export { voiceQualityEvents, type VoiceEventType, type VoiceQualityEvent, type VoiceSimulationEvents } from './events';

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
