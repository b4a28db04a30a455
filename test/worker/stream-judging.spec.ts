import { describe, expect, it } from 'vitest';
import type { EpisodeSummary } from '../../src/core/contract';
import { jsonDumps } from '../../src/core/py/json-dumps';
import { parseJson } from '../../src/core/py/json-parse';
import type { PyValue } from '../../src/core/py/value';
import { InspectSession } from '../../src/core/session/session';
import type { FileLike } from '../../src/protocol/wire-types';
import { openRun } from '../../src/worker/read-run';
import { Scheduler } from '../../src/worker/scheduler';
import { sampleRunText, sampleVersion } from '../support/fixtures';

/**
 * Issue 20 item 7 in the worker: a big file is judged while it is read. The file's bytes come from a
 * source that delivers its first slice and then holds the rest until the spec lets it go; the first
 * verdict must come meanwhile, from the session `openRun` hands out early, and the session it gives at
 * the end must be that one, complete, with the verdicts the whole text gives.
 */

const tick = (): Promise<void> => new Promise((ok) => setTimeout(ok, 0));

/** The sample run's episodes repeated past `minBytes` (a big file: its first slice is small). */
function bigRun(minBytes: number): string {
  const episodes = (parseJson(sampleRunText()) as PyValue[]).map((e) => jsonDumps(e));
  const out: string[] = [];
  for (let k = 0, n = 0; n < minBytes; k++) {
    out.push(episodes[k % episodes.length]!);
    n += out.at(-1)!.length + 2;
  }
  return `[${out.join(', ')}]`;
}

/** A File whose slices past its first megabyte wait for `release()`; `delivered` counts the bytes handed out. */
function slowFile(bytes: Uint8Array) {
  let release!: () => void;
  const held = new Promise<void>((ok) => (release = ok));
  const f = {
    name: 'slow.json',
    size: bytes.length,
    delivered: 0,
    release,
    text: async () => new TextDecoder().decode(bytes),
    arrayBuffer: async () => bytes.slice().buffer,
    slice: (a: number, b: number) => ({
      arrayBuffer: async () => {
        if (a >= 1 << 20) await held;
        f.delivered = Math.max(f.delivered, Math.min(b, bytes.length));
        return bytes.slice(a, b).buffer;
      },
    }),
  };
  return f as typeof f & FileLike;
}

describe('a big file judged while it is read', () => {
  it('gives a first verdict before the source has delivered the whole file, and the same verdicts in the end', async () => {
    const text = bigRun(18 << 20);
    const bytes = new TextEncoder().encode(text);
    const file = slowFile(bytes);
    const got: EpisodeSummary[] = [];
    let firstAt: number | null = null;
    let early: InspectSession | null = null;
    let scheduler: Scheduler | null = null;
    let judging: Promise<boolean> | null = null;
    const opened = openRun(
      { kind: 'file', file },
      {
        keptEvaluations: 4,
        wanted: () => true,
        prefix: () => true,
        pause: tick,
        early: (s) => {
          early = s;
          expect(s.reading).toBe(true);
          s.useData([sampleVersion()]);
          scheduler = new Scheduler(s, tick, s.records.length);
          judging = scheduler.runAll(
            () => true,
            (batch) => {
              firstAt ??= file.delivered;
              got.push(...batch);
            },
          );
        },
        grew: (count) => scheduler!.grow(count, true),
      },
    );
    for (let k = 0; k < 2000 && firstAt === null; k++) await tick();
    // The first verdict came while the source held everything past its first megabyte.
    expect(firstAt).not.toBeNull();
    expect(firstAt!).toBeLessThan(bytes.length);
    expect(file.delivered).toBe(1 << 20);
    expect(early!.reading).toBe(true);
    // The data version and rule wait for the whole file.
    expect(early!.settleData()).toBe(false);
    expect(early!.detection().dataFinal).toBe(false);
    expect(() => early!.finish()).toThrow(/still being read/);

    file.release();
    const r = await opened;
    expect(r?.session).toBe(early);
    expect(r && 'early' in r && r.early).toBe(true);
    expect(early!.reading).toBe(false);
    scheduler!.grow(early!.records.length, false);
    expect(await judging!).toBe(true);

    const whole = new InspectSession(text);
    whole.useData([sampleVersion()]);
    expect(early!.records.length).toBe(whole.records.length);
    expect([...got].sort((a, b) => a.index - b.index)).toEqual(whole.summaries());
    early!.finish();
    whole.finish();
    expect(early!.detection()).toEqual(whole.detection());
  });
});
