/**
 * The invented τ³ voice sample (sample-runs/voice-runs/tau2-retail-voice-sample on the invented retail data in τ²'s
 * schema, sample-runs/tau2-data): the committed files are what scripts/voice-sample.ts makes, every recorded reward is
 * the recomputed one, simulation 0 shows an interruption and a failed communicate check, and its audio is a short WAV
 * where τ² saves a simulation's audio.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTau2Folder } from '../../../src/core/contract';
import { Tau2Session } from '../../../src/core/session/tau2/session';
import { RETAIL_DB, VOICE_RUN, voiceSampleFiles } from '../../../scripts/voice-sample';
import { sampleTau2Read } from '../../support/voice';

const ROOT = resolve(import.meta.dirname, '../../..');
const read = (p: string): string => readFileSync(join(ROOT, p), 'utf8');

describe('the invented voice sample', () => {
  let session: Tau2Session;
  beforeAll(async () => {
    const dir = join(ROOT, VOICE_RUN, 'simulations');
    const files = readdirSync(dir)
      .sort()
      .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
    session = await Tau2Session.open(readTau2Folder(read(`${VOICE_RUN}/results.json`), files), sampleTau2Read);
  });

  it('the committed files are what scripts/voice-sample.ts makes (run it after changing the script)', async () => {
    const made = await voiceSampleFiles(read);
    expect([...made.keys()].sort()).toContain(RETAIL_DB);
    for (const [path, body] of made) {
      const onDisk = readFileSync(join(ROOT, path));
      expect(typeof body === 'string' ? onDisk.toString('utf8') : new Uint8Array(onDisk), path).toEqual(body);
    }
    // Every file of the run folder is one the script makes.
    const listed = (d: string): string[] =>
      readdirSync(join(ROOT, d), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listed(`${d}/${e.name}`) : [`${d}/${e.name}`]));
    expect(listed(VOICE_RUN).sort()).toEqual([...made.keys()].filter((p) => p.startsWith(VOICE_RUN)).sort());
  });

  it('recorded rewards are the recomputed ones: 0 (the refund said over two utterances), 1', () => {
    expect([0, 1].map((i) => [session.report(i).reward, session.report(i).matches_recorded_reward, session.report(i).error])).toEqual([
      [0, true, null],
      [1, true, null],
    ]);
    expect(session.report(0).reward_breakdown).toEqual({ DB: 1, COMMUNICATE: 0 });
  });

  it('simulation 0: the user cuts the agent off, and the failed check’s near miss is the refund split over two messages', () => {
    const t = session.voiceTimeline(0)!;
    expect(t.interruptions).toEqual([{ tick: 18, by: 'user', kind: 'interruption', stoppedAt: 20 }]);
    expect(t.lanes[0].segments.find((s) => s.cutOff)).toMatchObject({ start: 12, end: 20 });
    expect(t.lanes[1].segments.find((s) => s.action === 'interrupt')).toMatchObject({ start: 18, overlapsAtStart: true });
    expect(t.communicate).toEqual([
      {
        info: '61.74',
        met: false,
        found: null,
        nearMiss: expect.objectContaining({
          kind: 'split-across-messages',
          text: 'Done. Your refund of $61.74 goes back to your gift card. ',
          ticks: [44, 46],
        }),
      },
    ]);
    expect(t.toolCalls.map((c) => [c.tick, c.name])).toEqual([
      [28, 'find_user_id_by_email'],
      [29, 'get_order_details'],
      [40, 'cancel_pending_order'],
    ]);
    // Simulation 1 says it in one utterance (a silent tick inside it): found.
    expect(session.voiceTimeline(1)!.communicate?.[0]).toMatchObject({
      met: true,
      found: { text: 'Cancelled. $61.74 goes back to your gift card. ', ticks: [26, 29] },
    });
  });

  it('audio where τ² saves it, for simulation 0 only: a WAV as long as its ticks, small', () => {
    const [with0, without1] = [0, 1].map((i) => join(ROOT, VOICE_RUN, session.voiceTimeline(i)!.audioPaths[0]!));
    expect(existsSync(without1!)).toBe(false);
    const bytes = readFileSync(with0!);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes.subarray(8, 16).toString('latin1')).toBe('WAVEfmt ');
    const rate = bytes.readUInt32LE(24);
    const byteRate = bytes.readUInt32LE(28);
    const dataBytes = bytes.readUInt32LE(40);
    expect(rate).toBe(8000);
    expect(dataBytes / byteRate).toBeCloseTo(session.voiceTimeline(0)!.ticks * 0.2, 6);
    expect(statSync(with0!).size).toBeLessThan(200_000);
  });

  it('the retail DB is the invented τ-bench-schema one, each user with its user_id (τ²’s schema)', () => {
    const db = JSON.parse(read(RETAIL_DB)) as { users: Record<string, { user_id: string }>; orders: object; products: object };
    const users = JSON.parse(read('sample-runs/data/tau_bench/envs/retail/data/users.json')) as Record<string, object>;
    expect(Object.keys(db.users)).toEqual(Object.keys(users));
    for (const [id, u] of Object.entries(db.users)) expect(u).toEqual({ user_id: id, ...users[id] });
    expect(Object.keys(db.orders)).toEqual(Object.keys(JSON.parse(read('sample-runs/data/tau_bench/envs/retail/data/orders.json')) as object));
  });
});
