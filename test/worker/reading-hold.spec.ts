import { describe, expect, it } from 'vitest';
import { ReadingHold } from '../../src/worker/reading-hold';

/** Whether `p` has settled after the queued callbacks ran (timers included). */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setTimeout(r, 5));
  return done;
}

describe('ReadingHold: reading waits for the first verdict made from a kept DB', () => {
  it('does not wait before it is started', async () => {
    expect(await settled(new ReadingHold().wait())).toBe(true);
  });

  it('holds from the moment it is started (the next piece waits) until done()', async () => {
    const hold = new ReadingHold();
    hold.start(Promise.resolve(true), 60_000);
    const waiting = hold.wait();
    expect(await settled(waiting)).toBe(false);
    hold.done();
    expect(await settled(waiting)).toBe(true);
    // Released for good: later pieces do not wait.
    expect(await settled(hold.wait())).toBe(true);
  });

  it('lets go at once when no kept DB is read, or when the read cannot say', async () => {
    for (const kept of [() => Promise.resolve(false), () => Promise.reject(new Error('no IndexedDB'))]) {
      const hold = new ReadingHold();
      hold.start(kept(), 60_000);
      expect(await settled(hold.wait())).toBe(true);
    }
  });

  it('lets go after the longest hold when the first verdict does not come', async () => {
    const hold = new ReadingHold();
    hold.start(Promise.resolve(true), 20);
    const waiting = hold.wait();
    expect(await settled(waiting)).toBe(false);
    await new Promise((r) => setTimeout(r, 30));
    expect(await settled(waiting)).toBe(true);
  });
});
