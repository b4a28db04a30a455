/**
 * The timeline of a full-duplex (voice) simulation: lanes per speaker, overlaps and who cut in, calls at their ticks, the
 * transcript as τ² merges it, and each communicate check with the merged text it was found in or its nearest miss.
 * Simulations written here on the invented mock sample, and every simulation of ../shared/tau2/voice.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTau2Folder } from '../../../../src/core/contract';
import { Tau2Session } from '../../../../src/core/session/tau2/session';
import { TAU2_DIR, requireShared } from '../../../support/shared';
import { tau2Read } from '../../../support/tau2';
import { CREATE_TASK_3, openVoice, type TickSpec } from '../../../support/voice';

/** The agent asks, the user cuts in (the agent is cut off two ticks later), a call, and the id said over two chunks. */
const interrupted: TickSpec[] = [
  { agent: { text: 'Which title ', ids: ['a1'] } },
  { agent: { text: 'should the ', ids: ['a1'] } },
  { agent: { text: 'task have, ', ids: ['a1'] }, user: { text: 'Sorry, ', ids: ['u1'], action: 'interrupt' } },
  { agent: { text: 'and', ids: ['a1'], extra: { turn_taking_action: { action: 'interrupted', info: null } } }, user: { text: 'book the ', ids: ['u1'] } },
  { user: { text: 'team offsite.', ids: ['u1'] } },
  {},
  { agentCalls: [CREATE_TASK_3] },
  { agent: { text: 'Done: task', ids: ['a2'] } },
  {},
  { agent: { text: '_3 is yours.', ids: ['a2'] } },
  { user: { text: 'Thanks ###STOP###', ids: ['u2'] } },
];

describe('the timeline of a voice simulation', () => {
  it('lanes, the overlap, who cut in and when the agent stopped, the call at its tick, the merged transcript', async () => {
    const s = await openVoice([{ task: 'offsite_for_bram', ticks: interrupted }]);
    const t = s.voiceTimeline(0)!;
    expect(t.ticks).toBe(11);
    const [agent, user] = t.lanes;
    expect(agent.segments.map((x) => [x.start, x.end, x.text, x.cutOff])).toEqual([
      [0, 4, 'Which title should the task have, and', true],
      [7, 8, 'Done: task', false],
      [9, 10, '_3 is yours.', false],
    ]);
    expect(user.segments.map((x) => [x.start, x.end, x.action, x.overlapsAtStart])).toEqual([
      [2, 5, 'interrupt', true],
      // The last tick's 1-tick user segment (###STOP###) is dropped, as τ²'s metrics drop it.
    ]);
    expect(agent.utterances.map((u) => [u.id, u.start, u.end, u.text])).toEqual([
      ['a1', 0, 4, 'Which title should the task have, and'],
      ['a2', 7, 10, 'Done: task_3 is yours.'],
    ]);
    expect(t.overlaps).toEqual([{ start: 2, end: 4 }]);
    expect(t.interruptions).toEqual([{ tick: 2, by: 'user', kind: 'interruption', stoppedAt: 4 }]);
    expect(t.toolCalls.map((c) => [c.tick, c.name, c.requestor, c.matchesRecorded])).toEqual([[6, 'create_task', 'assistant', true]]);
    expect(t.transcript.map((l) => [l.speaker, l.start, l.text])).toEqual([
      ['agent', 0, 'Which title should the task have, and'],
      ['user', 2, 'Sorry, book the team offsite.'],
      ['agent', 7, 'Done: task_3 is yours.'],
      ['user', 10, 'Thanks ###STOP###'],
    ]);
    expect(t.events.map((e) => [e.type, e.tick, e.latencySec])).toEqual([
      ['yield', 2, 0.4],
      ['response', 5, 0.40000000000000013],
    ]);
    expect(t.metrics).toMatchObject({ yield_rate: 1, response_rate: 1, counts: { n_simulations: 1, yield_total: 1, response_total: 1 } });
    expect(t.audioPaths[0]).toBe('artifacts/task_offsite_for_bram/sim_voice-0/audio/both.wav');
    // Plain data: what crosses to a page is the same after structured cloning.
    expect(structuredClone(t)).toEqual(t);
  });

  it('a communicate check met: the merged message it is in, the span, and the ticks of the chunks the span covers', async () => {
    const s = await openVoice([{ task: 'offsite_for_bram', ticks: interrupted }]);
    expect(s.report(0)).toMatchObject({ reward: 1, error: null });
    expect(s.voiceTimeline(0)!.communicate).toEqual([
      { info: 'task_3', met: true, found: { line: 1, text: 'Done: task_3 is yours.', span: { start: 6, end: 12 }, ticks: [7, 9] }, nearMiss: null },
    ]);
  });

  const miss = async (said: TickSpec[], extraCall = false) => {
    const s = await openVoice([
      {
        task: 'offsite_for_bram',
        ticks: [...said, { agentCalls: [CREATE_TASK_3, ...(extraCall ? [] : [])] }, { user: { text: 'ok', ids: ['u9'] } }],
        reward: 0,
      },
    ]);
    expect(s.report(0).communicate_checks?.[0]?.met).toBe(false);
    return s.voiceTimeline(0)!.communicate![0]!;
  };

  it('not found, split over two utterances τ² does not merge: the two messages, the ticks, and why', async () => {
    const c = await miss([{ agent: { text: 'Your id is task', ids: ['a1'] } }, { agent: { text: '_3.', ids: ['a2'] } }]);
    expect(c.found).toBeNull();
    expect(c.nearMiss).toMatchObject({ kind: 'split-across-messages', text: 'Your id is task_3.', ticks: [0, 1] });
  });

  it('not found because the merge put a space where the utterance id changed', async () => {
    const c = await miss([
      { agent: { text: 'Your id is', ids: ['a1', 'a2'] } },
      { agent: { text: ' task', ids: ['a2'] } },
      { agent: { text: '_3.', ids: ['a1'] } },
    ]);
    expect(c.nearMiss).toMatchObject({ kind: 'space-between-utterances', text: 'Your id is task _3.', ticks: [0, 1, 2] });
  });

  it('not found: said only by the user, or only in a tool’s output', async () => {
    const byUser = await miss([{ agent: { text: 'Created.', ids: ['a1'] } }, { user: { text: 'So it is task_3?', ids: ['u1'] } }]);
    expect(byUser.nearMiss).toMatchObject({ kind: 'said-by-user', text: 'So it is task_3?', ticks: [1] });
    const inTool = await miss([{ agent: { text: 'Created.', ids: ['a1'] } }]);
    expect(inTool.nearMiss).toMatchObject({ kind: 'in-tool-output', ticks: [1] });
  });
});

const VOICE = join(TAU2_DIR, 'voice', 'runs');
describe('timelines of the shared voice runs', () => {
  if (!existsSync(VOICE) || !existsSync(join(TAU2_DIR, 'data'))) {
    (requireShared ? it : it.skip)('needs ../shared/tau2/voice', () => {
      throw new Error(`REQUIRE_SHARED=1: ${VOICE} is missing`);
    });
    return;
  }
  it('every simulation has one; every met check is found where τ² found it, every failed one has a near miss; interruptions seen', async () => {
    let sims = 0;
    let met = 0;
    let missed = 0;
    let cutIn = 0;
    for (const dir of readdirSync(VOICE).sort()) {
      const sd = join(VOICE, dir, 'simulations');
      const files = readdirSync(sd)
        .sort()
        .map((name) => ({ name, text: readFileSync(join(sd, name), 'utf8') }));
      const s = await Tau2Session.open(readTau2Folder(readFileSync(join(VOICE, dir, 'results.json'), 'utf8'), files), tau2Read);
      for (let i = 0; i < s.size; i++) {
        const t = s.voiceTimeline(i)!;
        sims++;
        for (const c of t.communicate ?? []) {
          if (c.met) {
            met++;
            expect(c.found?.text.toLowerCase().replaceAll(',', '')).toContain(c.info.toLowerCase());
            expect(c.found!.ticks.length).toBeGreaterThan(0);
          } else {
            missed++;
            expect(c.nearMiss, `${dir} ${i} ${c.info}`).not.toBeNull();
          }
        }
        const variant = (s.run.simulations[i]!.raw.get('info') as Map<string, unknown>).get('corpus_variant');
        if (variant === 'interrupted') {
          expect(t.interruptions.some((x) => x.by === 'user')).toBe(true);
          expect(t.lanes[0].segments.some((x) => x.cutOff)).toBe(true);
          cutIn++;
        }
        expect(t.toolCalls.every((c) => c.tick !== null)).toBe(true);
      }
    }
    expect({ sims, met, missed, cutIn }).toEqual({ sims: 82, met: 20, missed: 4, cutIn: 19 });
  });
});
