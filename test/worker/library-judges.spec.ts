/**
 * A library folder judged by library judges (issue 36): each judge's worker is faked here by what the worker runs
 * (src/worker/library-judge/library-judge.worker.ts: a `FolderJudge` over `RemoteTauBenchData` / `RemoteTau2Data`
 * asking the evaluator through an `Asker`) behind structured clones, one task later. Every run's rows must be those
 * the evaluator makes itself; a judge that stops gives its run back (null: the evaluator judges it) and takes no more.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareSha256 } from '../../src/core/contract';
import type { FileLike, FolderFile } from '../../src/protocol/wire-types';
import { DataLocator } from '../../src/worker/data-locator';
import { folderUnits, FolderJudge } from '../../src/worker/library/folder-library';
import { LibraryJudges } from '../../src/worker/library-judge/pool';
import { Asker, RemoteTau2Data, RemoteTauBenchData } from '../../src/worker/library-judge/remote-data';
import type { FromLibraryJudge, ToLibraryJudge } from '../../src/worker/library-judge/wire';
import { TauBenchData } from '../../src/worker/tau-bench-data';
import { Tau2Data } from '../../src/worker/tau2/data';

const root = resolve(import.meta.dirname, '../..');

/** A file of this checkout as a picked folder's file (`path` as the folder picker gives it, the folder's name first). */
function fileLike(path: string): FileLike {
  const bytes = readFileSync(path);
  return {
    name: path.split('/').at(-1)!,
    size: bytes.length,
    text: async () => bytes.toString('utf8'),
    arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer,
  };
}

function folder(name: string, dir: string): FolderFile[] {
  const out: FolderFile[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out.push({ path: `${name}/${relative(dir, p)}`, file: fileLike(p) });
    }
  };
  walk(dir);
  return out;
}

/** The evaluator's data: the sample data (τ-bench's and τ²'s) picked as a folder. */
function evaluatorData(): { tauBench: TauBenchData; tau2: Tau2Data } {
  const locator = new DataLocator();
  const tauBench = new TauBenchData(locator);
  const tau2 = new Tau2Data(locator);
  locator.useFolder('data', [...folder('data', join(root, 'sample-runs/data')), ...folder('data', join(root, 'sample-runs/tau2-data'))], [tauBench, tau2]);
  return { tauBench, tau2 };
}

type Behaviour = 'judges' | 'stops';

/**
 * A Worker-shaped fake running the library judge's code: messages structured-cloned (a unit's files, which a real
 * worker gets as Files, handed over as they are), answered one task later; `stops` fires `onerror` on its first run.
 */
function fakeJudge(behaviour: Behaviour, log: { runs: number }): Worker {
  const w = {
    onmessage: null as ((ev: MessageEvent<FromLibraryJudge>) => void) | null,
    onerror: null as (() => void) | null,
    terminated: false,
    postMessage(m: ToLibraryJudge) {
      const sent: ToLibraryJudge = m.type === 'judge' ? { ...m, unit: { ...m.unit, files: m.unit.files } } : structuredClone(m);
      setTimeout(() => {
        if (w.terminated) return;
        if (sent.type !== 'judge') return asker.answer(sent);
        log.runs++;
        if (behaviour === 'stops') return w.onerror?.();
        judge.rows(sent.unit).then(
          (rows) => reply({ type: 'rows', id: sent.id, rows }),
          (e: unknown) => reply({ type: 'failed', id: sent.id, reason: e instanceof Error ? e.message : String(e) }),
        );
      }, 0);
    },
    terminate() {
      w.terminated = true;
    },
  };
  const reply = (a: FromLibraryJudge): void =>
    void setTimeout(() => !w.terminated && w.onmessage?.({ data: structuredClone(a) } as MessageEvent<FromLibraryJudge>), 0);
  const asker = new Asker(reply);
  const judge = new FolderJudge(new RemoteTauBenchData(asker), new RemoteTau2Data(asker));
  return w as unknown as Worker;
}

/** The sample runs as a library folder without an index, and a file that is no run. */
function libraryFolder(): FolderFile[] {
  const runs = ['retail-sample.json', 'tau2-mock-sample.json', 'tau2-banking-sample.json'].map((f) => ({
    path: `lib/${f}`,
    file: fileLike(join(root, 'sample-runs/runs', f)),
  }));
  const broken = new TextEncoder().encode('{"simulations": [');
  return [
    ...runs,
    {
      path: 'lib/broken.json',
      file: { name: 'broken.json', size: broken.length, text: async () => '{"simulations": [', arrayBuffer: async () => broken.buffer as ArrayBuffer },
    },
  ];
}

describe('library judges: a folder without an index judged on workers of its own (issue 36)', () => {
  it("each run's rows (or why it has none) are the evaluator's own, data asked of the evaluator", async () => {
    await prepareSha256();
    const units = folderUnits(libraryFolder());
    expect(units.length).toBe(4);
    const data = evaluatorData();
    const here = new FolderJudge(data.tauBench, data.tau2);
    const log = { runs: 0 };
    const judges = new LibraryJudges(2, data.tauBench, data.tau2, () => fakeJudge('judges', log));
    const withRows: string[] = [];
    try {
      for (const unit of units) {
        const own = await here.rows(unit).then(
          (rows) => ({ rows }),
          (e: Error) => ({ reason: e.message }),
        );
        const judged = await judges.judge(unit);
        expect(judged, unit.path).toEqual(own);
        if ('rows' in own && own.rows.length > 0) withRows.push(unit.path);
      }
      // The three runs have rows (judged on the picked sample data); the broken file is a problem with its reason in both.
      expect(withRows.sort()).toEqual(['retail-sample.json', 'tau2-banking-sample.json', 'tau2-mock-sample.json']);
      expect(log.runs).toBe(4);
    } finally {
      judges.close();
    }
  }, 120_000);

  it('a judge that stops gives its run back and takes no more; with none left every run is the evaluator’s', async () => {
    const units = folderUnits(libraryFolder());
    const data = evaluatorData();
    const log = { runs: 0 };
    const judges = new LibraryJudges(1, data.tauBench, data.tau2, () => fakeJudge('stops', log));
    expect(judges.working).toBe(true);
    expect(await judges.judge(units[0]!)).toBeNull();
    expect(judges.working).toBe(false);
    expect(await judges.judge(units[1]!)).toBeNull();
    expect(log.runs).toBe(1);
    judges.close();
  });
});
