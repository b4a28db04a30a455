/**
 * Full-duplex (voice) simulations read as τ² v1.0.1 reads them: the message history derived from the ticks (user tool
 * calls before agent tool calls within a tick), the agent's chunks merged for the communicate check (each rule of
 * FullDuplexCommunicateEvaluator and merge_message_chunks), and which simulations are full duplex
 * (evaluate_trajectories.get_communication_mode). Simulations written here, on the invented mock sample.
 */
import { describe, expect, it } from 'vitest';
import { readTau2Text } from '../../../../src/core/contract';
import { mergedAgentSpeech, ticksToMessageHistory } from '../../../../src/core/model/episode/tau2/ticks';
import type { Tau2Tick } from '../../../../src/core/model/episode/tau2/types';
import { CREATE_TASK_3, openVoice, voiceRunJson, type TickSpec } from '../../../support/voice';

const DISMISS = { id: 'u1', name: 'dismiss_notification', arguments: { notification_id: 'note_1' }, output: 'Notification note_1 dismissed' };

/** The ticks of one simulation as the reader gives them. */
const read = (ticks: readonly TickSpec[]): readonly Tau2Tick[] => readTau2Text(voiceRunJson([{ task: 'offsite_for_bram', ticks }]))!.simulations[0]!.ticks!;
const merged = (ticks: readonly TickSpec[]) => mergedAgentSpeech(read(ticks)).map((m) => m.content);

describe('ticks → message history (FullDuplexEnvironmentEvaluator.ticks_to_message_history)', () => {
  const ticks: TickSpec[] = [
    { agent: { text: 'Hello', ids: ['a1'] } },
    {},
    { agent: { text: 'one moment', ids: ['a2'] }, user: { text: 'ok', ids: ['u1'] }, agentCalls: [CREATE_TASK_3], userCalls: [DISMISS] },
    { user: { text: 'thanks', ids: ['u2'] } },
  ];

  it('within a tick the user’s tool calls and results come before the agent’s; ticks without calls add nothing', () => {
    const h = ticksToMessageHistory(read(ticks));
    expect(h.messages.map((m) => [m.role, m.content, m.toolCalls?.map((c) => c.name) ?? m.id])).toEqual([
      ['user', 'ok', ['dismiss_notification']],
      ['tool', 'Notification note_1 dismissed', 'u1'],
      ['assistant', 'one moment', ['create_task']],
      ['tool', CREATE_TASK_3.output, 'c1'],
    ]);
    expect(h.ticks).toEqual([2, 2, 2, 2]);
  });

  it('the judge replays them in that order, each call with its tick and its index in the derived history', async () => {
    const s = await openVoice([{ task: 'offsite_for_bram', ticks }]);
    expect(s.run.simulations[0]!.messages).toHaveLength(4);
    const calls = s.report(0).tool_calls.map((c) => [c.name, c.requestor, c.message_index, c.tick_id, c.output, c.matches_recorded]);
    expect(calls).toEqual([
      ['dismiss_notification', 'user', 0, 2, 'Notification note_1 dismissed', true],
      ['create_task', 'assistant', 2, 2, CREATE_TASK_3.output, true],
    ]);
    // The agent's action is matched (the user's call before it does not hide it) and the DB is gold's.
    expect(s.report(0).action_checks?.map((c) => c.action_match)).toEqual([true]);
  });
});

describe('the agent’s chunks merged for the communicate check (merge_message_chunks)', () => {
  it('consecutive chunks of one utterance are joined with no separator (a number split over chunks is whole again)', () => {
    expect(merged([{ agent: { text: 'Your total is $8', ids: ['a1'] } }, { agent: { text: '29.43 today.', ids: ['a1'] } }])).toEqual([
      'Your total is $829.43 today.',
    ]);
  });

  it('one space between two chunks of a group whose utterance ids differ (the group goes on while ids overlap the group’s)', () => {
    // b overlaps {a, b}; then a is disjoint from b's own ids but overlaps the group's: same message, a space before it.
    expect(merged([{ agent: { text: 'one', ids: ['a', 'b'] } }, { agent: { text: 'two', ids: ['b'] } }, { agent: { text: 'three', ids: ['a'] } }])).toEqual([
      'onetwo three',
    ]);
  });

  it('a chunk whose ids are disjoint from the group’s starts a new message', () => {
    expect(merged([{ agent: { text: 'task', ids: ['a1'] } }, { agent: { text: '_3', ids: ['a2'] } }])).toEqual(['task', '_3']);
  });

  it('chunks carrying tool calls are left out (an empty tool_calls list too), and do not break the group', () => {
    expect(
      merged([
        { agent: { text: 'the id is task', ids: ['a1'] } },
        { agent: { text: 'IGNORED', ids: ['a1'], toolCalls: [] } },
        { agent: { text: '_3', ids: ['a1'] } },
      ]),
    ).toEqual(['the id is task_3']);
  });

  it('silent ticks (no agent chunk, or only the user speaking) do not break a group', () => {
    expect(
      merged([{ agent: { text: 'task', ids: ['a1'] } }, {}, { user: { text: 'mm-hmm', ids: ['u1'] } }, {}, { agent: { text: '_3', ids: ['a1'] } }]),
    ).toEqual(['task_3']);
  });

  it('a chunk without utterance ids stands alone, and the chunk after it starts a new message', () => {
    expect(merged([{ agent: { text: 'a', ids: ['a1'] } }, { agent: { text: 'b', ids: null } }, { agent: { text: 'c', ids: ['a1'] } }])).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('an empty chunk adds no text and leaves the ids the next chunk is compared with unchanged', () => {
    // '' (ids a, b) keeps the group; 'y' (b) is compared with 'x' (a): disjoint, so a space.
    expect(merged([{ agent: { text: 'x', ids: ['a'] } }, { agent: { text: '', ids: ['a', 'b'] } }, { agent: { text: 'y', ids: ['b'] } }])).toEqual(['x y']);
  });

  it('a lone chunk is the chunk itself: no text stays no text', () => {
    expect(merged([{ agent: { text: null, ids: ['a1'], speech: false } }])).toEqual([null]);
  });

  it('audio and text chunks in one group: τ² raises, so the simulation is not evaluable, said why', async () => {
    const s = await openVoice([
      {
        task: 'offsite_for_bram',
        ticks: [{ agent: { text: 'task', ids: ['a1'] } }, { agent: { text: '_3', ids: ['a1'], audio: true } }, { agentCalls: [CREATE_TASK_3] }],
      },
    ]);
    expect(s.report(0)).toMatchObject({
      reward: 0,
      error: 'ValueError: All chunks must be either audio or non-audio. Found mixed types: [False, True]',
      matches_recorded_reward: null,
    });
  });
});

describe('the communicate check on the merged speech', () => {
  const withSaid = (said: TickSpec[]) => [...said, { agentCalls: [CREATE_TASK_3] }, { user: { text: 'bye ###STOP###', ids: ['u9'] } }];

  it('an id split over two chunks of one utterance is found, in the merged message', async () => {
    const s = await openVoice([
      { task: 'offsite_for_bram', ticks: withSaid([{ agent: { text: 'Created: the id is task', ids: ['a1'] } }, { agent: { text: '_3.', ids: ['a1'] } }]) },
    ]);
    expect(s.report(0).communicate_checks).toEqual([
      { info: 'task_3', met: true, justification: "Information 'task_3' communicated in the message:\n 'Created: the id is task_3.'" },
    ]);
    expect(s.report(0)).toMatchObject({ reward: 1, db_match: true, error: null });
    expect(s.evaluate(0).communicateChecks?.[0]?.messageIndex).toBe(0);
  });

  it('split where the utterance id changes inside a group: a space comes between, and it is not found', async () => {
    const s = await openVoice([
      {
        task: 'offsite_for_bram',
        ticks: withSaid([
          { agent: { text: 'the id is', ids: ['a1', 'a2'] } },
          { agent: { text: ' task', ids: ['a2'] } },
          { agent: { text: '_3', ids: ['a1'] } },
        ]),
        reward: 0,
      },
    ]);
    expect(s.evaluate(0).spoken?.map((m) => m.content)).toEqual(['the id is task _3']);
    expect(s.report(0)).toMatchObject({ reward: 0, db_match: true, error: null, reward_breakdown: { DB: 1, ACTION: 1, COMMUNICATE: 0 } });
  });
});

describe('which simulations are full duplex (get_communication_mode)', () => {
  const said = [{ agent: { text: 'the id is task_3', ids: ['a1'] } }, { agentCalls: [CREATE_TASK_3] }];
  const recordedMessages = [{ role: 'assistant', content: 'nothing here', tool_calls: null }];

  it('mode full_duplex, or ticks with any mode: judged on the ticks, the recorded messages ignored', async () => {
    const s = await openVoice([
      { task: 'offsite_for_bram', ticks: said, extra: { messages: recordedMessages } },
      { task: 'offsite_for_bram', ticks: said, extra: { messages: recordedMessages, mode: 'half_duplex' } },
    ]);
    for (const i of [0, 1]) {
      expect(s.run.simulations[i]!.fullDuplex).toBe(true);
      expect(s.report(i)).toMatchObject({ reward: 1, error: null });
    }
  });

  it('mode half_duplex without ticks and no voice signal in the run: judged on the messages', async () => {
    const s = await openVoice([{ task: 'offsite_for_bram', ticks: null, extra: { messages: recordedMessages, mode: 'half_duplex' } }]);
    expect(s.run.simulations[0]!.fullDuplex).toBe(false);
    expect(s.report(0)).toMatchObject({ error: null, db_match: false, communicate_checks: [{ info: 'task_3', met: false }] });
  });

  it.each([
    ['mode full_duplex', (_: Record<string, unknown>) => {}, { mode: 'full_duplex' }],
    [
      'an audio_native_config in the run’s info',
      (i: Record<string, unknown>) => (i.audio_native_config = { provider: 'openai', model: 'x' }),
      { mode: 'half_duplex' },
    ],
    [
      'the voice-streaming user simulator',
      (i: Record<string, unknown>) => ((i.user_info as Record<string, unknown>).implementation = 'voice_streaming_user_simulator'),
      { mode: 'half_duplex' },
    ],
  ])('%s without ticks: full duplex with no trajectory, so τ²’s checks raise (not evaluable, said why)', async (_, info, extra) => {
    const s = await openVoice([{ task: 'offsite_for_bram', ticks: null, extra: { messages: recordedMessages, ...extra } }], info);
    expect(s.run.simulations[0]!.fullDuplex).toBe(true);
    expect(s.report(0)).toMatchObject({
      reward: 0,
      matches_recorded_reward: null,
      error: expect.stringMatching(/^TypeError: 'NoneType' object is not iterable — a full-duplex \(voice\) simulation that records no ticks/),
    });
  });

  it('an audio_native_config of null is no voice signal', async () => {
    const s = await openVoice([{ task: 'offsite_for_bram', ticks: null, extra: { messages: recordedMessages, mode: 'half_duplex' } }], (i) => {
      i.audio_native_config = null;
    });
    expect(s.run.simulations[0]!.fullDuplex).toBe(false);
  });

  it('values pydantic coerces are coerced: a tick_id "3", contains_speech "false"', () => {
    const run = JSON.parse(voiceRunJson([{ task: 'offsite_for_bram', ticks: said }])) as { simulations: { ticks: Record<string, unknown>[] }[] };
    run.simulations[0]!.ticks[0]!.tick_id = '3';
    (run.simulations[0]!.ticks[0]!.agent_chunk as Record<string, unknown>).contains_speech = 'false';
    const sim = readTau2Text(JSON.stringify(run))!.simulations[0]!;
    expect(sim.invalid).toBeNull();
    expect([sim.ticks![0]!.tickId, sim.ticks![0]!.agentChunk!.containsSpeech]).toEqual([3, false]);
  });

  it('ticks τ²’s Tick model refuses make τ² refuse the file: said where', () => {
    const run = JSON.parse(voiceRunJson([{ task: 'offsite_for_bram', ticks: said }])) as { simulations: { ticks: Record<string, unknown>[] }[] };
    run.simulations[0]!.ticks[0]!.tick_id = 'x';
    run.simulations[0]!.ticks[1]!.agent_chunk = { role: 'user', content: 'hi' };
    const sim = readTau2Text(JSON.stringify(run))!.simulations[0]!;
    expect(sim.invalid).toBe(
      "simulations.0.ticks.0.tick_id: Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='x', input_type=str]",
    );
    const other = JSON.parse(voiceRunJson([{ task: 'offsite_for_bram', ticks: said }])) as typeof run;
    other.simulations[0]!.ticks[1]!.agent_chunk = { role: 'user', content: 'hi' };
    expect(readTau2Text(JSON.stringify(other))!.simulations[0]!.invalid).toMatch(
      /^simulations\.0\.ticks\.1\.agent_chunk\.role: Input should be 'assistant' \[type=literal_error/,
    );
  });
});

describe('what-if on a voice simulation', () => {
  it('is refused in a sentence (its messages come from the ticks); with no edit it is the simulation as judged', async () => {
    const s = await openVoice([{ task: 'offsite_for_bram', ticks: [{ agent: { text: 'task_3', ids: ['a1'] } }, { agentCalls: [CREATE_TASK_3] }] }]);
    expect(s.whatIf(0, [{ kind: 'drop', step: 0 } as never])).toEqual({
      error: 'What-if edits a text simulation’s messages; this is a full-duplex (voice) simulation, judged from its ticks, which what-if does not edit yet.',
    });
    expect(s.whatIf(0, [])).toMatchObject({ rewardAfter: 1 });
  });
});
