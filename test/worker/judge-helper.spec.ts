import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DataVersion, EpisodeSummary } from '../../src/core/contract';
import { jsonDumps } from '../../src/core/py/json-dumps';
import { parseJson } from '../../src/core/py/json-parse';
import type { PyValue } from '../../src/core/py/value';
import { InspectSession } from '../../src/core/session/session';
import { HelperEndpoint } from '../../src/worker/judge-helper/endpoint';
import { JudgeHelper } from '../../src/worker/judge-helper/helper';
import type { FromHelper, ToHelper } from '../../src/worker/judge-helper/wire';
import { Scheduler } from '../../src/worker/scheduler';
import { sampleRunText, sampleVersion, sharedVersions } from '../support/fixtures';
import { itShared, SHARED_DIR } from '../support/shared';

/**
 * A big run judged on two threads: the scheduler hands batches to the judge helper, whose worker is
 * faked here by the real endpoint behind structured clones (what postMessage does to a message), one
 * task later. Every row, the rule and the data version must be those of the run judged on one thread.
 */

const tick = (): Promise<void> => new Promise((ok) => setTimeout(ok, 0));

type Behaviour = 'answers' | 'fails' | 'hangs';

/** A Worker-shaped fake: `answers` runs the endpoint, `fails` answers every batch `failed`, `hangs` never answers. */
function fakeWorker(behaviour: Behaviour, log: { judged: number; batches: number }): Worker {
  const endpoint = new HelperEndpoint();
  const w = {
    onmessage: null as ((ev: MessageEvent<FromHelper>) => void) | null,
    onerror: null,
    onmessageerror: null,
    terminated: false,
    postMessage(m: ToHelper, transfer: Transferable[] = []) {
      // As postMessage does: a clone, with the transferred buffers moved (detached on the sender's side).
      const sent = structuredClone(m, { transfer });
      setTimeout(() => {
        if (w.terminated || behaviour === 'hangs') return;
        const answer: FromHelper | null =
          behaviour === 'fails' && sent.type === 'judge'
            ? { type: 'failed', gen: sent.gen, batch: sent.batch, message: 'broken on purpose' }
            : endpoint.receive(sent);
        if (!answer) return;
        if (answer.type === 'judged') {
          log.batches++;
          log.judged += answer.verdicts.length;
        }
        w.onmessage?.({ data: structuredClone(answer) } as MessageEvent<FromHelper>);
      }, 0);
    },
    terminate() {
      w.terminated = true;
    },
  };
  return w as unknown as Worker;
}

/** A session on `bytes` (a results file) with its data chosen, and a scheduler whose offload is a helper behaving as told. */
function helped(bytes: Uint8Array, versions: readonly DataVersion[], behaviour: Behaviour, answerMs = 60_000) {
  const session = InspectSession.fromBytes(bytes, {}, undefined, { keptEvaluations: 4 });
  session.useData(versions);
  const scheduler = new Scheduler(session, tick, session.records.length);
  const log = { judged: 0, batches: 0 };
  const helper = new JudgeHelper(
    session,
    scheduler,
    (a, b) => bytes.subarray(a, b),
    () => fakeWorker(behaviour, log),
    answerMs,
  );
  scheduler.useOffload(helper);
  helper.useData();
  return { session, scheduler, helper, log };
}

/** Runs the scheduler to the end (it must finish) and stops the helper; the rows as they came, sorted. */
async function judgeToEnd({ session, scheduler, helper, log }: ReturnType<typeof helped>) {
  const rows: EpisodeSummary[] = [];
  expect(
    await scheduler.runAll(
      () => true,
      (batch) => rows.push(...batch),
    ),
  ).toBe(true);
  helper.close();
  return { session, rows: rows.sort((a, b) => a.index - b.index), log, scheduler };
}

/** Judges `bytes` with a helper behaving as told, from the start to the end. */
const judgeWithHelper = (bytes: Uint8Array, versions: readonly DataVersion[], behaviour: Behaviour, answerMs = 60_000) =>
  judgeToEnd(helped(bytes, versions, behaviour, answerMs));

function judgedAlone(bytes: Uint8Array, versions: readonly DataVersion[]): InspectSession {
  const s = InspectSession.fromBytes(bytes);
  s.useData(versions);
  s.summaries();
  return s;
}

/** The sample run's episodes, `n` of them (repeated in turn). */
function sampleCopies(n: number): Uint8Array {
  const episodes = (parseJson(sampleRunText()) as PyValue[]).map((e) => jsonDumps(e));
  return new TextEncoder().encode(`[${Array.from({ length: n }, (_, k) => episodes[k % episodes.length]).join(', ')}]`);
}

function expectSameRun(helped: Awaited<ReturnType<typeof judgeWithHelper>>, alone: InspectSession): void {
  expect(helped.rows.map((r) => r.index)).toEqual(alone.records.map((_, i) => i));
  expect(helped.rows).toEqual(alone.summaries());
  expect(helped.scheduler.count).toBe(alone.records.length);
  helped.session.finish();
  alone.finish();
  expect(helped.session.summaries()).toEqual(alone.summaries());
  expect(helped.session.detection()).toEqual(alone.detection());
}

describe('the judge helper (a big run on two threads)', () => {
  it('judges part of the run, and every row, the rule and the data version are those judged on one thread', async () => {
    const bytes = sampleCopies(90);
    const helped = await judgeWithHelper(bytes, [sampleVersion()], 'answers');
    // It did take work: at least one whole batch came back and was adopted.
    expect(helped.log.batches).toBeGreaterThan(0);
    expect(helped.log.judged).toBeGreaterThanOrEqual(12);
    expectSameRun(helped, judgedAlone(bytes, [sampleVersion()]));
  });

  it('a helper that fails every batch only sends its episodes back: the run is judged here, the same', async () => {
    const bytes = sampleCopies(40);
    const helped = await judgeWithHelper(bytes, [sampleVersion()], 'fails');
    expect(helped.log.judged).toBe(0);
    expectSameRun(helped, judgedAlone(bytes, [sampleVersion()]));
  });

  it('a helper that never answers is stopped, and its episodes are judged here', async () => {
    const bytes = sampleCopies(40);
    const helped = await judgeWithHelper(bytes, [sampleVersion()], 'hangs', 200);
    expectSameRun(helped, judgedAlone(bytes, [sampleVersion()]));
  });

  it('verdicts judged on data the run no longer uses are dropped (the scheduler was reset meanwhile)', async () => {
    const bytes = sampleCopies(60);
    const run = helped(bytes, [sampleVersion()], 'answers');
    const { session, scheduler, helper } = run;
    // A first verdict here, then two batches go to the helper; the data is chosen again before they come back.
    const first = scheduler.runAll(
      () => true,
      () => scheduler.cancel(),
    );
    expect(await first).toBe(false);
    session.useData([sampleVersion()]);
    scheduler.reset();
    helper.useData();
    await tick();
    const again = await judgeToEnd(run);
    expect(again.rows.map((r) => r.index)).toEqual(session.records.map((_, i) => i));
    expectSameRun(again, judgedAlone(bytes, [sampleVersion()]));
  });

  itShared('a real run (gpt-4o-airline, 200 episodes) on two threads gives the rows, rule and data version of one thread', async () => {
    const bytes = new Uint8Array(readFileSync(join(SHARED_DIR, 'runs', 'gpt-4o-airline.json')));
    const versions = sharedVersions('airline');
    const helped = await judgeWithHelper(bytes, versions, 'answers');
    expect(helped.log.judged).toBeGreaterThan(24);
    expectSameRun(helped, judgedAlone(bytes, versions));
  });
});
