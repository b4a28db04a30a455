import { describe, expect, it } from 'vitest';
import type { EpisodeSummary } from '../../src/core/contract';
import { InspectSession } from '../../src/core/session/session';
import { Scheduler } from '../../src/worker/scheduler';
import { sampleRunText, sampleVersion } from '../support/fixtures';

const tick = (): Promise<void> => new Promise((ok) => setTimeout(ok, 0));

describe('the worker scheduler', () => {
  it('stops producing summaries once cancelled, and resumes where it stopped', async () => {
    const session = new InspectSession(sampleRunText());
    session.useData([sampleVersion()]);
    const scheduler = new Scheduler(session, tick, session.records.length, 0);
    const total = session.records.length;
    expect(total).toBeGreaterThan(3);

    const got: EpisodeSummary[] = [];
    let batches = 0;
    const first = await scheduler.runAll(
      () => true,
      (batch) => {
        batches++;
        got.push(...batch);
        // Cancelled while the first row is on its way (another run is being opened).
        scheduler.cancel();
      },
    );
    expect(first).toBe(false);
    expect(batches).toBe(1);
    expect(got.length).toBe(1);
    for (let k = 0; k < 10; k++) await tick();
    expect(got.length).toBe(1);
    expect(scheduler.count).toBeLessThan(total);
    expect([...Array(total).keys()].filter((i) => session.isEvaluated(i)).length).toBe(scheduler.count);

    // Resumed (the other run could not be opened): every row arrives exactly once.
    scheduler.resume();
    const done = await scheduler.runAll(
      () => true,
      (batch) => got.push(...batch),
    );
    expect(done).toBe(true);
    expect(got.map((s) => s.index).sort((a, b) => a - b)).toEqual([...Array(total).keys()]);
    expect([...got].sort((a, b) => a.index - b.index)).toEqual(session.summaries());
  });

  it('stops as soon as the run is no longer the open one', async () => {
    const session = new InspectSession(sampleRunText());
    session.useData([sampleVersion()]);
    const scheduler = new Scheduler(session, tick, session.records.length, 0);
    let open = true;
    const got: EpisodeSummary[] = [];
    const ran = scheduler.runAll(
      () => open,
      (batch) => got.push(...batch),
    );
    await tick();
    open = false;
    expect(await ran).toBe(false);
    const count = scheduler.count;
    for (let k = 0; k < 10; k++) await tick();
    expect(scheduler.count).toBe(count);
    expect(count).toBeLessThan(session.records.length);
  });

  it('lets queued messages in every few milliseconds, not after each episode', async () => {
    const session = new InspectSession(sampleRunText());
    session.useData([sampleVersion()]);
    const total = session.records.length;
    let pauses = 0;
    const counted = (): Promise<void> => {
      pauses++;
      return tick();
    };
    // Judging for up to a minute between pauses: one pause, after the first verdict goes out (so it is shown at once).
    const scheduler = new Scheduler(session, counted, total, 60_000);
    const got: number[] = [];
    expect(
      await scheduler.runAll(
        () => true,
        (batch) => got.push(...batch.map((s) => s.index)),
      ),
    ).toBe(true);
    expect(got.sort((a, b) => a - b)).toEqual([...Array(total).keys()]);
    expect(pauses).toBe(1);
    // A pause after every episode when asked (slice 0).
    pauses = 0;
    scheduler.reset();
    const each = new Scheduler(session, counted, total, 0);
    expect(
      await each.runAll(
        () => true,
        () => undefined,
      ),
    ).toBe(true);
    expect(pauses).toBe(total);
  });

  it('once nothing is left to judge here, judges the episodes still out with the offload too: the run ends without waiting for them, each row once', async () => {
    const session = new InspectSession(sampleRunText());
    session.useData([sampleVersion()]);
    const total = session.records.length;
    const scheduler = new Scheduler(session, tick, total, 0);
    // An offload that takes two episodes and sits on them (a helper busy with its queue).
    const held: number[] = [];
    scheduler.useOffload({
      room: () => (held.length === 0 ? 2 : 0),
      send: (_gen, indices) => (held.push(...indices), true),
    });
    const got: EpisodeSummary[] = [];
    const done = await scheduler.runAll(
      () => true,
      (batch) => got.push(...batch),
    );
    expect(done).toBe(true);
    expect(held).toHaveLength(2);
    expect(held.every((i) => scheduler.isEvaluated(i))).toBe(true);
    expect(got.map((s) => s.index).sort((a, b) => a - b)).toEqual([...Array(total).keys()]);
    // Their verdicts arriving late are not taken again.
    scheduler.adopt(
      scheduler.generation,
      held.map((index) => ({ index, verdicts: { summaries: { 'db-and-outputs': got[0]!, 'outputs-only': got[0]! }, evidence: null } })),
    );
    expect(scheduler.count).toBe(total);
    expect([...got].sort((a, b) => a.index - b.index)).toEqual(session.summaries());
  });

  it("the offload's verdicts, back a few at a time while nothing is left to judge here, go out together at most every 250 ms, each row once", async () => {
    const session = new InspectSession(sampleRunText());
    session.useData([sampleVersion()]);
    const total = session.records.length;
    const scheduler = new Scheduler(session, tick, total, 0);
    // While the file is still read (so nothing sent out is taken back to be judged here), an offload that takes every
    // episode but the first (judged here) and answers one every 40 ms; with the last answer, the file is read to its end.
    scheduler.grow(total, true);
    const out: number[] = [];
    scheduler.useOffload({
      room: () => total,
      send: (gen, indices) => {
        out.push(...indices);
        indices.forEach((index, k) =>
          setTimeout(
            () => {
              const s = session.evaluate(index);
              scheduler.adopt(gen, [{ index, verdicts: { summaries: { 'db-and-outputs': s, 'outputs-only': s }, evidence: null } }]);
              if (k === indices.length - 1) scheduler.grow(total, false);
            },
            40 * (k + 1),
          ),
        );
        return true;
      },
    });
    const posts: { at: number; rows: number[] }[] = [];
    const done = await scheduler.runAll(
      () => true,
      (batch) => posts.push({ at: performance.now(), rows: batch.map((s) => s.index) }),
    );
    expect(done).toBe(true);
    expect(out.length).toBe(total - 1);
    expect(posts[0]!.rows).toEqual([0]);
    expect(posts.flatMap((p) => p.rows).sort((a, b) => a - b)).toEqual([...Array(total).keys()]);
    // Not one post per answer: those after the first are a quarter of a second apart (timers never fire early; 5 ms for
    // the clock), but for the last, which goes as the run ends.
    expect(posts.length).toBeLessThan(total - 1);
    for (let k = 1; k < posts.length - 1; k++) expect(posts[k]!.at - posts[k - 1]!.at).toBeGreaterThanOrEqual(245);
  });
});
