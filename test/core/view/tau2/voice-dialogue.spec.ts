/**
 * The dialogue of a full-duplex (voice) simulation: the speech τ² merges (each speaker's turns, with their ticks and
 * seconds) put back between the tool calls of the message history τ² derives from the ticks, in tick order. A
 * simulation written here on the invented mock sample, and every simulation of ../shared/tau2/voice.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTau2Folder, type VoiceDialogueEntry } from '../../../../src/core/contract';
import { Tau2Session } from '../../../../src/core/session/tau2/session';
import { voiceDialogue } from '../../../../src/core/view/tau2/voice/dialogue';
import { TAU2_DIR, requireShared } from '../../../support/shared';
import { tau2Read } from '../../../support/tau2';
import { CREATE_TASK_3, openVoice, type TickSpec } from '../../../support/voice';

/** The user asks, the agent answers, calls a tool in silence (as the shared runs do), then speaks again. */
const ticks: TickSpec[] = [
  { user: { text: 'Please book ', ids: ['u1'] } },
  { user: { text: 'the team offsite.', ids: ['u1'] } },
  {},
  { agent: { text: 'One moment, ', ids: ['a1'] } },
  { agent: { text: 'I am creating it.', ids: ['a1'] } },
  { agentCalls: [CREATE_TASK_3] },
  { agent: { text: 'Done: task_3 ', ids: ['a2'] } },
  { agent: { text: 'is yours.', ids: ['a2'] } },
  { user: { text: 'Thanks ###STOP###', ids: ['u2'] } },
];

const shape = (d: readonly VoiceDialogueEntry[]): string[] =>
  d.map((x) => (x.kind === 'message' ? `#${x.index}` : `${x.turn.speaker}@${x.turn.start}-${x.turn.end}: ${x.turn.text}`));

describe('the dialogue of a voice simulation', () => {
  it('speech turns merged as τ² merges them, between the tool call and its result in tick order, with ticks and seconds', async () => {
    const s = await openVoice([{ task: 'offsite_for_bram', ticks }]);
    const view = s.simView(0);
    const voice = view.voice!;
    // The history τ² derives from the ticks: the agent's call and its result, at tick 5; nothing of what was said.
    expect(view.messages.map((m) => [m.role, m.calls.map((c) => c.name)])).toEqual([
      ['assistant', ['create_task']],
      ['tool', []],
    ]);
    expect(voice.messageTicks).toEqual([5, 5]);
    expect(shape(voice.dialogue)).toEqual([
      'user@0-2: Please book the team offsite.',
      'agent@3-5: One moment, I am creating it.',
      '#0',
      '#1',
      'agent@6-8: Done: task_3 is yours.',
      'user@8-9: Thanks ###STOP###',
    ]);
    const turn = voice.dialogue.find((x) => x.kind === 'speech' && x.turn.start === 6);
    expect(turn?.kind === 'speech' && [turn.turn.startSec, turn.turn.endSec, turn.turn.ticks]).toEqual([1.2000000000000002, 1.6, [6, 7]]);
    // Every transcript line once, every message once, in order.
    expect(voice.dialogue.filter((x) => x.kind === 'speech').map((x) => (x.kind === 'speech' ? x.turn.text : ''))).toEqual(voice.transcript.map((l) => l.text));
  });

  it('a turn that begins in a call’s tick comes before the call; turns after the last message close the list; unknown ticks keep their place', () => {
    const line = (speaker: 'agent' | 'user', start: number, end: number) => ({
      speaker,
      text: `${speaker} ${start}`,
      utteranceIds: [],
      ticks: [start],
      start,
      end,
    });
    const timing = { firstTick: 10, tickSeconds: 0.5 };
    expect(shape(voiceDialogue([line('user', 12, 13), line('agent', 14, 16), line('user', 20, 21)], [12, 13, 15], 3, timing))).toEqual([
      'user@12-13: user 12',
      '#0',
      '#1',
      'agent@14-16: agent 14',
      '#2',
      'user@20-21: user 20',
    ]);
    expect(shape(voiceDialogue([line('user', 11, 12)], [], 2, timing))).toEqual(['#0', '#1', 'user@11-12: user 11']);
    const [first] = voiceDialogue([line('agent', 12, 14)], [], 0, timing);
    expect(first?.kind === 'speech' && [first.turn.startSec, first.turn.endSec]).toEqual([1, 2]);
  });
});

const VOICE = join(TAU2_DIR, 'voice', 'runs');
describe('the dialogues of the shared voice runs', () => {
  if (!existsSync(VOICE) || !existsSync(join(TAU2_DIR, 'data'))) {
    (requireShared ? it : it.skip)('needs ../shared/tau2/voice', () => {
      throw new Error(`REQUIRE_SHARED=1: ${VOICE} is missing`);
    });
    return;
  }
  it('every message once and in order, every merged turn once, in tick order; speech between calls', async () => {
    let sims = 0;
    let turns = 0;
    let between = 0;
    for (const dir of readdirSync(VOICE).sort()) {
      const sd = join(VOICE, dir, 'simulations');
      const files = readdirSync(sd)
        .sort()
        .map((name) => ({ name, text: readFileSync(join(sd, name), 'utf8') }));
      const s = await Tau2Session.open(readTau2Folder(readFileSync(join(VOICE, dir, 'results.json'), 'utf8'), files), tau2Read);
      for (let i = 0; i < s.size; i++) {
        const view = s.simView(i);
        const voice = view.voice!;
        sims++;
        const d = voice.dialogue;
        expect(d.flatMap((x) => (x.kind === 'message' ? [x.index] : []))).toEqual(view.messages.map((m) => m.index));
        expect(d.flatMap((x) => (x.kind === 'speech' ? [x.turn] : [])).map((t) => [t.speaker, t.start, t.text])).toEqual(
          voice.transcript.map((l) => [l.speaker, l.start, l.text]),
        );
        const at = d.map((x) => (x.kind === 'speech' ? x.turn.start : voice.messageTicks[x.index]!));
        expect(at).toEqual([...at].sort((a, b) => a - b));
        turns += voice.transcript.length;
        // A turn between two calls of the history: words the history alone would not show.
        const firstCall = d.findIndex((x) => x.kind === 'message');
        const lastCall = d.findLastIndex((x) => x.kind === 'message');
        if (d.slice(firstCall, lastCall).some((x) => x.kind === 'speech')) between++;
      }
    }
    expect(sims).toBe(82);
    expect(turns).toBeGreaterThan(sims * 2);
    expect(between).toBeGreaterThan(sims / 2);
  });
});
