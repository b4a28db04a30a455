/**
 * τ²'s voice interaction metrics from ticks, on tick patterns written here after the synthetic cases of τ²'s own tests
 * (tests/test_voice/test_interaction_metrics): the same shapes (who speaks in which tick, the user's turn-taking action,
 * a speech insert) and the numbers τ²'s tests expect of them. With TAU2_CHECKOUT (a tau2-bench checkout at a2c0247 or
 * later) also τ²'s golden fixture, read from the checkout where it lies: every number of its expected_metrics.json.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTau2Folder } from '../../../../src/core/contract';
import type { TValue } from '../../../../src/core/py/pydantic';
import type { Tau2Chunk, Tau2Tick } from '../../../../src/core/model/episode/tau2/types';
import {
  DEFAULT_INTERACTION_CONFIG,
  filterEndOfConversationTicks,
  interactionConfigOf,
  interactionMetrics,
  voiceQualityEvents,
} from '../../../../src/core/view/tau2/voice/metrics';

const TICK = 0.2;

interface Spec {
  user?: boolean;
  agent?: boolean;
  action?: string;
  insert?: 'vocal_tic' | 'non_directed_phrase';
}

const chunk = (role: 'assistant' | 'user', speech: boolean, action: string | null, raw: Map<string, TValue>): Tau2Chunk => ({
  role,
  content: null,
  toolCalls: null,
  isAudio: false,
  timestamp: null,
  utteranceIds: null,
  chunkId: null,
  isFinalChunk: true,
  containsSpeech: speech,
  turnTaking: action === null ? null : { action, info: null },
  raw,
});

/** One tick per spec: an agent chunk always (speaking or not), a user chunk when the user speaks or an insert is played. */
const ticks = (specs: readonly Spec[]): Tau2Tick[] =>
  specs.map((s, i) => ({
    tickId: i,
    timestamp: '2026-01-01T00:00:00',
    agentChunk: chunk('assistant', s.agent ?? false, null, new Map()),
    userChunk:
      s.user || s.insert
        ? chunk(
            'user',
            s.user ?? false,
            s.action ?? null,
            new Map<string, TValue>(
              s.insert
                ? [
                    [
                      'speech_effects',
                      new Map<string, TValue>([
                        [
                          'speech_insert',
                          new Map<string, TValue>([
                            ['text', 'um'],
                            ['type', s.insert],
                          ]),
                        ],
                      ]),
                    ],
                  ]
                : [],
            ),
          )
        : null,
    agentToolCalls: [],
    userToolCalls: [],
    agentToolResults: [],
    userToolResults: [],
    durationSeconds: TICK,
  }));

const times = (n: number, s: Spec = {}): Spec[] => Array.from({ length: n }, () => s);
const byType = (specs: readonly Spec[]) => {
  const out: Record<string, { latency_sec: number | null }[]> = {};
  for (const e of voiceQualityEvents(ticks(specs)).events) (out[e.event_type] ??= []).push(e);
  return out;
};

describe('response events', () => {
  it('the user speaks ticks 0-4, the agent answers at tick 10: one response, 1.0 s later', () => {
    const e = byType([...times(5, { user: true, action: 'keep_talking' }), ...times(5), ...times(5, { agent: true }), ...times(5)]);
    expect(e.response).toHaveLength(1);
    expect(e.response![0]!.latency_sec).toBeCloseTo(5 * TICK, 12);
    expect(e.no_response).toBeUndefined();
  });

  it('the user has to speak again before the agent answers: a no_response, then a response to the second turn', () => {
    const e = byType([
      ...times(5, { user: true, action: 'keep_talking' }),
      ...times(10),
      ...times(5, { user: true, action: 'keep_talking' }),
      ...times(5),
      ...times(3, { agent: true }),
      ...times(3),
    ]);
    expect(e.no_response).toHaveLength(1);
    expect(e.response).toHaveLength(1);
  });
});

describe('yield events', () => {
  it('the user cuts in at tick 4, the agent stops at tick 7: a yield after 0.6 s', () => {
    const e = byType([
      ...times(4, { agent: true }),
      { agent: true, user: true, action: 'keep_talking' },
      { agent: true, user: true },
      { agent: true, user: true },
      ...times(3, { user: true }),
      ...times(5),
      ...times(3, { agent: true }),
      ...times(2),
    ]);
    expect(e.yield).toHaveLength(1);
    expect(e.yield![0]!.latency_sec).toBeCloseTo(3 * TICK, 12);
    expect(e.no_yield).toBeUndefined();
  });

  it('the agent talks through the 2 s window: a no_yield', () => {
    const e = byType([
      ...times(2, { agent: true }),
      ...times(4, { agent: true, user: true, action: 'keep_talking' }),
      ...times(12, { agent: true }),
      ...times(2),
    ]);
    expect(e.no_yield).toHaveLength(1);
    expect(e.yield).toBeUndefined();
  });
});

describe('selectivity events', () => {
  it('a backchannel the agent talks through is correct', () => {
    const e = byType([
      ...times(3, { agent: true }),
      ...times(2, { agent: true, user: true, action: 'backchannel' }),
      ...times(8, { agent: true }),
      ...times(2),
    ]);
    expect(e.backchannel_correct).toHaveLength(1);
    expect(e.backchannel_error).toBeUndefined();
  });

  it('a backchannel the agent stops for within 1 s is an error', () => {
    const e = byType([...times(3, { agent: true }), ...times(2, { agent: true, user: true, action: 'backchannel' }), ...times(8, { user: false })]);
    expect(e.backchannel_error).toHaveLength(1);
    expect(e.backchannel_correct).toBeUndefined();
  });

  it('a vocal tic during agent speech that makes the agent stop is an error', () => {
    const e = byType([...times(3, { agent: true }), ...times(2, { agent: true, user: true, action: 'keep_talking', insert: 'vocal_tic' }), ...times(8)]);
    expect(e.vocal_tic_error).toHaveLength(1);
    expect(e.vocal_tic_correct).toBeUndefined();
  });

  it('non-directed speech while the agent is silent, the agent staying silent: correct', () => {
    const e = byType([...times(3, { agent: true }), ...times(3), ...times(2, { user: false, insert: 'non_directed_phrase' }), ...times(15)]);
    expect(e.non_directed_correct).toHaveLength(1);
    expect(e.non_directed_error).toBeUndefined();
  });
});

describe('preprocessing and the panel', () => {
  it('a 1-tick user segment at the very end (###STOP###) is dropped; a longer final segment is kept', () => {
    const one = ticks([...times(3, { agent: true }), {}, { user: true, action: 'keep_talking' }]);
    expect(filterEndOfConversationTicks(one)).toHaveLength(one.length - 1);
    const two = ticks([...times(3, { agent: true }), ...times(2, { user: true, action: 'keep_talking' })]);
    expect(filterEndOfConversationTicks(two)).toHaveLength(two.length);
  });

  it('only response events: response rate 1.0, selectivity null where no event backs it', () => {
    const r = interactionMetrics([
      { ticks: ticks([...times(3, { user: true, action: 'keep_talking' }), ...times(2), ...times(3, { agent: true }), ...times(2)]) },
    ]);
    expect(r.error).toBeNull();
    expect(r.metrics).toMatchObject({
      response_rate: 1.0,
      // As Python computes it: agent start 5 × 0.2 minus user end 0 + 3 × 0.2 (0.6000000000000001).
      response_latency_mean: 0.3999999999999999,
      yield_rate: null,
      selectivity_backchannel: null,
      agent_interruption_rate: 0,
      counts: { n_simulations: 1, response_total: 1, backchannel_total: 0, agent_interrupts_count: 0 },
    });
  });

  it('simulations without ticks: no panel, said why (τ²’s NoVoiceTicksError)', () => {
    expect(interactionMetrics([{ ticks: null }, { ticks: [] }])).toEqual({
      metrics: null,
      error: 'No tick-bearing simulations found — interaction metrics require full-duplex (voice) trajectories.',
    });
  });

  it('pooled over simulations: events of all of them, the agent’s interruptions counted per user turn', () => {
    const a = ticks([...times(5, { user: true, action: 'keep_talking' }), ...times(5), ...times(5, { agent: true }), ...times(5)]);
    // The agent starts while the user is still speaking (an agent interruption), the user stops 2 ticks later.
    const b = ticks([...times(4, { user: true, action: 'keep_talking' }), ...times(2, { user: true, agent: true }), ...times(4, { agent: true }), ...times(3)]);
    const r = interactionMetrics([{ ticks: a }, { ticks: b }]);
    expect(r.metrics?.counts).toEqual({
      n_simulations: 2,
      response_total: 1,
      yield_total: 0,
      backchannel_total: 0,
      vocal_tic_total: 0,
      non_directed_total: 0,
      agent_interrupts_count: 1,
    });
    expect(r.metrics?.agent_interruption_rate).toBe(1);
  });

  it('the tick length comes from the run’s audio_native_config when it records one', () => {
    expect(interactionConfigOf(new Map([['audio_native_config', new Map([['tick_duration_seconds', 0.05]])]]))).toEqual({
      ...DEFAULT_INTERACTION_CONFIG,
      tick_duration_sec: 0.05,
    });
    expect(interactionConfigOf(new Map([['audio_native_config', null]]))).toBe(DEFAULT_INTERACTION_CONFIG);
  });
});

const GOLDEN = process.env.TAU2_CHECKOUT ? join(process.env.TAU2_CHECKOUT, 'tests/test_voice/test_interaction_metrics/testdata') : null;
describe.runIf(GOLDEN !== null && existsSync(GOLDEN))('τ²’s golden fixture, read from a tau2-bench checkout (TAU2_CHECKOUT)', () => {
  it('the panel equals expected_metrics.json, number for number', () => {
    const dir = join(GOLDEN!, 'experiment');
    const files = readdirSync(join(dir, 'simulations'))
      .sort()
      .map((name) => ({ name, text: readFileSync(join(dir, 'simulations', name), 'utf8') }));
    const run = readTau2Folder(readFileSync(join(dir, 'results.json'), 'utf8'), files);
    const got = interactionMetrics(run.simulations, interactionConfigOf(run.info));
    expect(got.metrics).toEqual(JSON.parse(readFileSync(join(GOLDEN!, 'expected_metrics.json'), 'utf8')));
  });
});
