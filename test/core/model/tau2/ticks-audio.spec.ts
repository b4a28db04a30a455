/**
 * The audio of the agent's chunks that τ²'s communicate check merges (merge_message_chunks): τ² decodes every chunk's
 * base64 `audio_content`, compares their formats and merges their `audio_script_gold` before it merges the text, and
 * a raise there ends its evaluation of the simulation — so such a simulation gets no verdict here either, with τ²'s
 * reason. A lone chunk is not merged, so nothing of its audio is read. Simulations written here, on the invented mock
 * sample; each outcome as τ² v1.0.1 gives it on the same ticks (checked against τ²'s own evaluator).
 */
import { describe, expect, it } from 'vitest';
import { b64decodeCheck } from '../../../../src/core/model/episode/tau2/chunk-audio';
import { CREATE_TASK_3, openVoice, type ChunkSpec, type TickSpec } from '../../../support/voice';

const ULAW = { encoding: 'ulaw', sample_rate: 8000, channels: 1 };
const PCM = { encoding: 'pcm_s16le', sample_rate: 24000, channels: 1 };

/** The id said over two chunks of one utterance (merged for the communicate check), then the call and the goodbye. */
const said = (first: NonNullable<ChunkSpec['extra']>, second: NonNullable<ChunkSpec['extra']>): TickSpec[] => [
  { agent: { text: 'Created: the id is task', ids: ['a1'], extra: first } },
  { agent: { text: '_3.', ids: ['a1'], extra: second } },
  { agentCalls: [CREATE_TASK_3] },
  { user: { text: 'bye ###STOP###', ids: ['u9'] } },
];
const judged = async (ticks: TickSpec[]) => (await openVoice([{ task: 'offsite_for_bram', ticks }])).report(0);

describe('base64 audio decoded as b64decode decodes it (binascii.a2b_base64, not strict)', () => {
  it.each([
    ['', null],
    ['QQ==', null],
    ['QU=JD', null],
    ['QQ==QUJD', null],
    ['!!!', null],
    [' Q Q = = ', null],
    ['QU=JDQU=JD', null],
    ['QQ', 'Error: Incorrect padding'],
    ['QQ=a', 'Error: Incorrect padding'],
    ['Q', 'Error: Invalid base64-encoded string: number of data characters (1) cannot be 1 more than a multiple of 4'],
    ['QUJDR', 'Error: Invalid base64-encoded string: number of data characters (5) cannot be 1 more than a multiple of 4'],
    ['a===', 'Error: Invalid base64-encoded string: number of data characters (1) cannot be 1 more than a multiple of 4'],
    ['é', "UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' in position 0: ordinal not in range(128)"],
    ['QQ€€=', "UnicodeEncodeError: 'ascii' codec can't encode characters in position 2-3: ordinal not in range(128)"],
  ])('%j', (text, error) => {
    let got: string | null = null;
    try {
      b64decodeCheck(text);
    } catch (e) {
      got = `${(e as { pyType: string }).pyType}: ${(e as Error & { text: string }).text}`;
    }
    expect(got).toBe(error);
  });
});

describe('a merged group’s audio', () => {
  it('decodable, one format: judged as without audio (the id found in the merged text)', async () => {
    const r = await judged(said({ audio_content: 'QQ==', audio_format: ULAW }, { audio_content: 'QUJD', audio_format: { encoding: 'ulaw' } }));
    expect(r).toMatchObject({ reward: 1, error: null, communicate_checks: [{ info: 'task_3', met: true }] });
  });

  it('badly padded audio in one chunk: τ² raises in the merge, so no verdict', async () => {
    expect(await judged(said({ audio_content: 'QQ' }, { audio_content: 'QUJD' }))).toMatchObject({
      reward: 0,
      error: 'Error: Incorrect padding',
      matches_recorded_reward: null,
    });
  });

  it('audio that is not ASCII: τ² raises encoding it', async () => {
    expect(await judged(said({ audio_content: 'QQ==' }, { audio_content: 'é' }))).toMatchObject({
      error: "UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' in position 0: ordinal not in range(128)",
      matches_recorded_reward: null,
    });
  });

  it('two audio formats in one group: τ² raises', async () => {
    const r = await judged(said({ audio_content: 'QQ==', audio_format: ULAW }, { audio_content: 'QUJD', audio_format: PCM }));
    // τ² prints the formats as a set (its order varies run to run); here in the order first seen.
    expect(r.error).toBe(
      "ValueError: All audio chunks must have the same audio format. Found formats: {'ulaw, 8000 Hz, 8-bit, mono', 'pcm_s16le, 24000 Hz, 16-bit, mono'}",
    );
    expect(r.matches_recorded_reward).toBeNull();
  });

  it('a script gold whose active list holds a non-number: τ² raises reading it with int()', async () => {
    const gold = '<message uuid="m1" active="0,x"><chunk id=0>A</chunk></message>';
    expect(await judged(said({ audio_content: 'QQ==', audio_script_gold: gold }, { audio_content: 'QUJD' }))).toMatchObject({
      error: "ValueError: invalid literal for int() with base 10: 'x'",
    });
    const spaced = '<message uuid="m1" active="0, 1"><chunk id=0>A</chunk></message>';
    expect(await judged(said({ audio_content: 'QQ==', audio_script_gold: spaced }, { audio_content: 'QUJD' }))).toMatchObject({ reward: 1, error: null });
  });

  it('no audio_content anywhere in the group: nothing of the audio is read (a bad script gold too)', async () => {
    const gold = '<message uuid="m1" active="x"></message>';
    expect(await judged(said({ audio_script_gold: gold, audio_format: PCM }, { audio_format: ULAW }))).toMatchObject({ reward: 1, error: null });
  });

  it('a lone chunk is not merged: its bad audio is never decoded', async () => {
    const r = await judged([
      { agent: { text: 'Created: the id is task_3.', ids: ['a1'], extra: { audio_content: 'Q' } } },
      { agentCalls: [CREATE_TASK_3] },
      { user: { text: 'bye ###STOP###', ids: ['u9'] } },
    ]);
    expect(r).toMatchObject({ reward: 1, error: null });
  });
});
