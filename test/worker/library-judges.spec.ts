/**
 * A library folder judged by library judges (issue 36): each judge's worker is faked here by what the worker runs
 * (src/worker/library-judge/library-judge.worker.ts: a `FolderJudge` over `RemoteTauBenchData` / `RemoteTau2Data`
 * asking the evaluator through an `Asker`) behind structured clones, one task later. Every run's rows must be those
 * the evaluator makes itself; a judge that stops gives its run back (null: the evaluator judges it) and takes no more.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_DIR, describeShared, SHARED_DIR } from '../support/shared';
import { prepareSha256 } from '../../src/core/contract';
import type { FileLike, FolderFile } from '../../src/protocol/wire-types';
import { DataLocator, type Located } from '../../src/worker/data-locator';
import { folderUnits, FolderJudge } from '../../src/worker/library/folder-library';
import type { Unit } from '../../src/worker/library-judge/wire';
import { LibraryJudges } from '../../src/worker/library-judge/pool';
import { LibraryJudgeEndpoint } from '../../src/worker/library-judge/endpoint';
import type { FromLibraryJudge, SharedDataOf, ToLibraryJudge } from '../../src/worker/library-judge/wire';
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
function evaluatorData(): { tauBench: TauBenchData; tau2: Tau2Data; locator: DataLocator } {
  const locator = new DataLocator();
  const tauBench = new TauBenchData(locator);
  const tau2 = new Tau2Data(locator);
  locator.useFolder('data', [...folder('data', join(root, 'sample-runs/data')), ...folder('data', join(root, 'sample-runs/tau2-data'))], [tauBench, tau2]);
  return { tauBench, tau2, locator };
}

type Behaviour = 'judges' | 'stops' | 'stops-loading';

/** What a fake judge said to the evaluator: the questions it asked, by type (`read`: the files' paths). */
interface Said {
  runs: number;
  reads: string[];
  asks: number;
  shared: number;
  /** What it shared, when kept (`share` messages). */
  shares?: Extract<FromLibraryJudge, { type: 'share' }>[];
}

/**
 * A Worker-shaped fake running the library judge's code (`LibraryJudgeEndpoint`, as library-judge.worker.ts does):
 * messages structured-cloned (a unit's files, which a real worker gets as Files, handed over as they are), answered one
 * task later; `stops` fires `onerror` on its first run, `stops-loading` once it asks for a data file after it was told to
 * load the data.
 */
function fakeJudge(behaviour: Behaviour, log: { runs: number }, said: Said = { runs: 0, reads: [], asks: 0, shared: 0 }): Worker {
  const w = {
    onmessage: null as ((ev: MessageEvent<FromLibraryJudge>) => void) | null,
    onerror: null as (() => void) | null,
    terminated: false,
    postMessage(m: ToLibraryJudge) {
      const sent: ToLibraryJudge = m.type === 'judge' ? { ...m, unit: { ...m.unit, files: m.unit.files } } : structuredClone(m);
      setTimeout(() => {
        if (w.terminated) return;
        if (sent.type === 'shared' && sent.data !== null) said.shared++;
        if (sent.type === 'shared' && sent.data === null) loading = true;
        if (sent.type === 'judge') {
          log.runs++;
          said.runs++;
          if (behaviour === 'stops') return w.onerror?.();
        }
        endpoint.receive(sent);
      }, 0);
    },
    terminate() {
      w.terminated = true;
    },
  };
  let loading = false;
  const reply = (a: FromLibraryJudge): void => {
    if (a.type === 'read') said.reads.push(a.path);
    if (behaviour === 'stops-loading' && a.type === 'read' && loading) return void setTimeout(() => w.onerror?.(), 0);
    if (a.type === 'ask-shared') said.asks++;
    if (a.type === 'share') said.shares?.push(a);
    setTimeout(() => !w.terminated && w.onmessage?.({ data: structuredClone(a) } as MessageEvent<FromLibraryJudge>), 0);
  };
  const endpoint = new LibraryJudgeEndpoint(reply);
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

  it("a domain's data is loaded by one judge: the other restores what it shares, with the same rows", async () => {
    await prepareSha256();
    // Two runs of each domain (a file and its copy), handed to the two judges at once: both ask for the same data.
    const [retail, mock, banking] = folderUnits(libraryFolder()).filter((u) => !u.path.startsWith('broken'));
    const copy = (u: Unit): Unit => ({ ...u, path: `copy-${u.path}`, files: u.files.map((f) => ({ ...f, path: f.path.replace('lib/', 'lib/copy-') })) });
    const data = evaluatorData();
    const here = new FolderJudge(data.tauBench, data.tau2);
    const said: Said[] = [0, 1].map(() => ({ runs: 0, reads: [], asks: 0, shared: 0 }));
    let made = 0;
    const judges = new LibraryJudges(2, data.tauBench, data.tau2, () => fakeJudge('judges', { runs: 0 }, said[made++]));
    try {
      for (const unit of [retail!, mock!, banking!]) {
        const before = said.map((s) => s.reads.length);
        const [a, b] = await Promise.all([judges.judge(unit), judges.judge(copy(unit))]);
        const own = await here.rows(unit);
        expect(a, unit.path).toEqual({ rows: own });
        expect(b, unit.path).toEqual({ rows: own.map((r) => ({ ...r, file: `copy-${r.file}` })) });
        // The DB files were read by one judge only (the other restored them; τ-bench's versions come with the reference replays hashed).
        const dbReads = said.map((s, i) =>
          s.reads.slice(before[i]).filter((p) => /\/(db\.json|users\.json|orders\.json|products\.json|flights\.json|reservations\.json)$/.test(p)),
        );
        expect(dbReads.filter((r) => r.length > 0).length, `${unit.path}: ${JSON.stringify(dbReads)}`).toBe(1);
      }
      expect(said.map((s) => s.runs)).toEqual([3, 3]);
      expect(said.reduce((n, s) => n + s.shared, 0)).toBe(3);
    } finally {
      judges.close();
    }
  }, 120_000);

  it('data the evaluator keeps (a run of the page used it) is handed to the judges: they read no data file', async () => {
    await prepareSha256();
    const units = folderUnits(libraryFolder()).filter((u) => u.path !== 'broken.json');
    const data = evaluatorData();
    // The evaluator judges each run itself first (as after a run of the page, or a judge that failed): its data is kept.
    const own = await Promise.all(units.map((u) => new FolderJudge(data.tauBench, data.tau2).rows(u)));
    const said: Said = { runs: 0, reads: [], asks: 0, shared: 0 };
    const judges = new LibraryJudges(1, data.tauBench, data.tau2, () => fakeJudge('judges', { runs: 0 }, said));
    try {
      for (const [i, unit] of units.entries()) expect(await judges.judge(unit), unit.path).toEqual({ rows: own[i] });
      expect(said.shared).toBe(3);
      expect(said.reads.filter((p) => /\/(db|users|orders|products)\.json$/.test(p))).toEqual([]);
    } finally {
      judges.close();
    }
  }, 120_000);

  it("each domain's files are read through the reader located for that domain (a source's reader knows its own domain's files)", async () => {
    await prepareSha256();
    const data = evaluatorData();
    const units = folderUnits(libraryFolder()).filter((u) => u.path.startsWith('tau2-'));
    const own = await Promise.all(units.map((u) => new FolderJudge(evaluatorData().tauBench, evaluatorData().tau2).rows(u)));
    // As the dev server's and URL sources are: one key for every domain, a reader that has the located domain's files only.
    class PerDomain extends Tau2Data {
      override async locate(domain: string): Promise<Located | null> {
        const loc = await data.tau2.locate(
          domain,
          false,
          () => () => undefined,
          () => undefined,
        );
        return loc && { ...loc, key: 'one-source', read: (p) => (p.includes(`/domains/${domain}/`) ? loc.read(p) : Promise.resolve(null)) };
      }
    }
    const judges = new LibraryJudges(2, data.tauBench, new PerDomain(data.locator), () => fakeJudge('judges', { runs: 0 }));
    try {
      // Both runs at once: their domains are located one after the other before either reads its files.
      expect(await Promise.all(units.map((u) => judges.judge(u)))).toEqual(own.map((rows) => ({ rows })));
    } finally {
      judges.close();
    }
  }, 120_000);

  it('data whose loader stops is loaded by the judge that waited for it', async () => {
    await prepareSha256();
    const retail = folderUnits(libraryFolder()).find((u) => u.path === 'retail-sample.json');
    const mine = evaluatorData();
    const own = await new FolderJudge(mine.tauBench, mine.tau2).rows(retail!);
    // (Another evaluator's: this one keeps no data, so a judge is told to load it.)
    const data = evaluatorData();
    let made = 0;
    // The first judge is told to load the data and stops while it reads the files; the second, waiting for it, loads them.
    const first: Said = { runs: 0, reads: [], asks: 0, shared: 0 };
    const said: Said = { runs: 0, reads: [], asks: 0, shared: 0 };
    const judges = new LibraryJudges(2, data.tauBench, data.tau2, () =>
      made++ === 0 ? fakeJudge('stops-loading', { runs: 0 }, first) : fakeJudge('judges', { runs: 0 }, said),
    );
    try {
      const a = judges.judge(retail!);
      // The second run is handed out once the first judge has asked for the data (so it is the one told to load it).
      while (first.asks === 0) await new Promise((r) => setTimeout(r, 1));
      const b = await judges.judge(retail!);
      expect(await a).toBeNull();
      expect(b).toEqual({ rows: own });
      expect(said.reads.length).toBeGreaterThan(0);
      expect(said.shared).toBe(0);
    } finally {
      judges.close();
    }
  }, 120_000);

  it('a judge with no run left is ended at once (retire), one still judging only once idle; a run asked of a judge goes to it', async () => {
    await prepareSha256();
    const units = folderUnits(libraryFolder());
    const [retail, mock] = ['retail-sample.json', 'tau2-mock-sample.json'].map((p) => units.find((u) => u.path === p));
    const data = evaluatorData();
    const said: Said[] = [0, 1].map(() => ({ runs: 0, reads: [], asks: 0, shared: 0 }));
    const made: Worker[] = [];
    const judges = new LibraryJudges(2, data.tauBench, data.tau2, () => made[made.push(fakeJudge('judges', { runs: 0 }, said[made.length])) - 1]!);
    const ended = (i: number): boolean => (made[i] as unknown as { terminated: boolean }).terminated;
    try {
      // Judge 1 is asked for, though judge 0 is idle too.
      const busy = judges.judge(retail!, 1);
      judges.retire(1);
      judges.retire(0);
      expect([ended(0), ended(1)]).toEqual([true, false]);
      expect(await busy).toHaveProperty('rows');
      expect(said.map((s) => s.runs)).toEqual([0, 1]);
      judges.retire(1);
      expect(ended(1)).toBe(true);
      expect(judges.working).toBe(false);
      expect(await judges.judge(mock!, 1)).toBeNull();
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

  describeShared('on ../shared (two data commits of each domain)', () => {
    it('a judge that loads a domain shares the version its run used and the data files’ texts, not every version built; the other judge’s rows are the evaluator’s', async () => {
      await prepareSha256();
      const locator = new DataLocator();
      const data = { tauBench: new TauBenchData(locator), tau2: new Tau2Data(locator) };
      locator.useFolder('data', folder('data', DATA_DIR), [data.tauBench]);
      const units = folderUnits(
        ['gpt-4o-airline.json', 'grok-4-fast-react-airline.json'].map((f) => ({ path: `lib/${f}`, file: fileLike(join(SHARED_DIR, 'runs', f)) })),
      );
      const own = await Promise.all(units.map((u) => new FolderJudge(data.tauBench, data.tau2).rows(u)));
      // (The evaluator above kept what it loaded and would hand it on: the judges get another evaluator's data, which keeps none.)
      const fresh = new DataLocator();
      const theirs = { tauBench: new TauBenchData(fresh), tau2: new Tau2Data(fresh) };
      fresh.useFolder('data', folder('data', DATA_DIR), [theirs.tauBench]);
      const said: Said[] = [0, 1].map(() => ({ runs: 0, reads: [], asks: 0, shared: 0, shares: [] }));
      let made = 0;
      const judges = new LibraryJudges(2, theirs.tauBench, theirs.tau2, () => fakeJudge('judges', { runs: 0 }, said[made++]));
      try {
        expect(await Promise.all(units.map((u) => judges.judge(u)))).toEqual(own.map((rows) => ({ rows })));
        const shares = said.flatMap((s) => s.shares ?? []);
        expect(shares.length).toBe(1);
        const shared = shares[0]!.data as SharedDataOf['tau-bench'];
        // One version built (the one both runs use), where both commits' files were read: the other is parsed only if a run asks.
        expect(shared.versions.length).toBe(1);
        expect(new Set(shared.texts.map(([path]) => path.split('/')[0])).size).toBe(2);
        // The DB files were read by one judge only.
        expect(said.filter((s) => s.reads.some((p) => /\/(flights|reservations|users)\.json$/.test(p))).length).toBe(1);
      } finally {
        judges.close();
      }
    }, 120_000);
  });
});
