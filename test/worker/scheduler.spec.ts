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
});
