import { EvalCache, InspectSession, prepareSha256, readTau2Folder, tauBenchRunRows, type IndexRow, type Tau2Run } from '../../core/contract';
import type { FolderFile, LibraryProblem, LibraryTable } from '../../protocol/wire-types';
import type { TauBenchData } from '../tau-bench-data';
import { yieldToMessages } from '../post';
import type { Tau2Data } from '../tau2/data';
import { readTau2OrNull, tau2LibraryRows } from '../tau2/read';
import { libraryRow, TableBuilder } from '../../core/contract';
import { libraryJudgeCount, LibraryJudges, type JudgedUnit } from '../library-judge/pool';
import { dataGroupOf, HEAD_BYTES, JudgePlan } from '../library-judge/plan';
import { MissingData } from './missing-data';
import type { Unit } from '../library-judge/wire';

const inside = (f: FolderFile): string => f.path.replace(/\\/g, '/').split('/').slice(1).join('/');

/** Folders of benchmark data are not runs (as `tau-inspect index` skips them). */
const DATA_PATH = /(^|\/)(tau_bench\/envs|data\/tau2\/domains|tau2\/domains)\//;

/** The runs of a picked folder, in path order: τ² run folders first claim their files, every other .json file is one. */
export function folderUnits(files: readonly FolderFile[]): Unit[] {
  const json = files.filter((f) => /\.json$/i.test(f.path) && !DATA_PATH.test(inside(f)));
  const runDirs = json
    .map(inside)
    .filter((p) => p === 'results.json' || p.endsWith('/results.json'))
    .map((p) => p.slice(0, -'results.json'.length))
    .filter((dir) => json.some((f) => inside(f).startsWith(`${dir}simulations/`)));
  const units: Unit[] = runDirs.map((dir) => ({
    path: dir.replace(/\/$/, '') || '.',
    files: json.filter((f) => inside(f).startsWith(dir) && (inside(f) === `${dir}results.json` || inside(f).startsWith(`${dir}simulations/`))),
    folder: true,
  }));
  const claimed = new Set(units.flatMap((u) => u.files));
  for (const f of json) if (!claimed.has(f)) units.push({ path: inside(f), files: [f], folder: false });
  return units.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The first bytes of a run's first file (a run folder's results.json), as text; null when they cannot be read apart. */
async function headOf(unit: Unit): Promise<string | null> {
  const file = unit.folder ? unit.files.find((f) => /(^|\/)results\.json$/.test(f.path)) : unit.files[0];
  const blob = file?.file as Partial<Blob> | undefined;
  if (typeof blob?.slice !== 'function') return null;
  try {
    return await blob.slice(0, HEAD_BYTES).text();
  } catch {
    return null;
  }
}

/**
 * Whether a file's text may open with `{` after its leading white space (and BOM) — the only texts τ²'s reader takes
 * (`readTau2Text`) —, told from its bytes: false once the first byte past ASCII white space is another ASCII character
 * (every ASCII white space is white space to `trimStart`); a non-ASCII byte (a BOM, other white space) says maybe.
 */
export function mayOpenObject(bytes: Uint8Array): boolean {
  for (const b of bytes) {
    if (b === 0x20 || (b >= 0x09 && b <= 0x0d)) continue;
    return b === 0x7b || b >= 0x80;
  }
  return false;
}

const hex = (b: ArrayBuffer): string => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, '0')).join('');

/** The content hash `tau-inspect index` records: sha256 of the file (of a run folder's files in path order). */
async function contentHash(files: readonly FolderFile[], read: readonly ArrayBuffer[] | null = null): Promise<string> {
  const parts = read ?? (await Promise.all(files.map((f) => f.file.arrayBuffer())));
  if (parts.length === 1) return hex(await crypto.subtle.digest('SHA-256', parts[0]!));
  const all = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    all.set(new Uint8Array(p), at);
    at += p.byteLength;
  }
  return hex(await crypto.subtle.digest('SHA-256', all));
}

/**
 * A folder of results files judged in the worker — by library judges, workers of its own, one per core (see
 * ../library-judge/pool.ts), else here one file at a time (yielding to the page's messages between them) —, into
 * the rows `tau-inspect index` would write: τ-bench files with the data an opened run would use (the picked data
 * folder, agreed URL bases, the dev server, this browser's cache), τ² files and run folders with τ²'s.
 * A file that cannot be judged is listed with its reason and the rest go on.
 */
export class FolderJudge {
  constructor(
    private readonly data: TauBenchData,
    private readonly tau2: Tau2Data,
    /** DB hashes and reference replays kept across the runs judged here (a library judge's data shares it). */
    private readonly cache: EvalCache = new EvalCache(),
  ) {}

  async judge(
    files: readonly FolderFile[],
    progress: (done: number, total: number, episodes: number, problems: number) => void,
    live: () => boolean,
    /** Each run's rows as judged, by its path (the submissions view reads them). */
    onRows?: (path: string, rows: readonly IndexRow[]) => void,
  ): Promise<{ table: LibraryTable; problems: LibraryProblem[] }> {
    await prepareSha256().catch(() => undefined);
    const units = folderUnits(files);
    const out = new TableBuilder();
    const problems: LibraryProblem[] = [];
    progress(0, units.length, 0, 0);
    const judged: JudgedUnit[] = new Array<JudgedUnit>(units.length).fill(null);
    let done = 0;
    let episodes = 0;
    let failed = 0;
    const settle = (i: number, r: NonNullable<JudgedUnit>): void => {
      judged[i] = r;
      done++;
      if ('rows' in r) episodes += r.rows.length;
      else failed++;
      progress(done, units.length, episodes, failed);
    };
    const here = (unit: Unit): Promise<NonNullable<JudgedUnit>> =>
      this.rows(unit).then(
        (rows) => ({ rows }),
        (e: unknown) => ({ reason: e instanceof Error ? e.message : String(e), ...(e instanceof MissingData && { missing: e.benchmark }) }),
      );
    const count = libraryJudgeCount(units.length);
    if (count > 0) {
      // Every core: each library judge takes the next run (see `JudgePlan`), and the rows go in in path order. The data
      // each run needs is guessed from its first bytes and located at once, while the judges start and read their runs.
      const judges = new LibraryJudges(count, this.data, this.tau2);
      const groups = await Promise.all(units.map((u) => headOf(u).then((head) => (head === null ? null : dataGroupOf(head)))));
      for (const g of groups) if (g !== null) judges.prepare(g.kind, g.domain);
      const plan = new JudgePlan(
        units.map((u, i) => ({
          index: i,
          bytes: u.files.reduce((n, f) => n + f.file.size, 0),
          group: groups[i] ? `${groups[i].kind}|${groups[i].domain}` : null,
        })),
        count,
      );
      // Each lane is one judge's (see `JudgePlan.next`: a judge keeps to the data it has worked on).
      const lane = async (_: unknown, k: number): Promise<void> => {
        for (let i = plan.next(k); live() && i !== null; i = plan.next(k)) settle(i, (await judges.judge(units[i]!, k)) ?? (await here(units[i]!)));
        judges.retire(k);
      };
      try {
        await Promise.all(Array.from({ length: count }, lane));
      } finally {
        judges.close();
      }
    } else
      for (const [i, unit] of units.entries()) {
        if (!live()) break;
        settle(i, await here(unit));
        await yieldToMessages();
      }
    for (const [i, r] of judged.entries()) {
      if (r === null) continue;
      if ('rows' in r) {
        onRows?.(units[i]!.path, r.rows);
        for (const row of r.rows) out.add(libraryRow(units[i]!.path, row));
      } else problems.push({ file: units[i]!.path, reason: r.reason, ...(r.missing !== undefined && { missing: r.missing }) });
    }
    return { table: out.finish(), problems };
  }

  /** The rows of one run (a library judge's too); throws, with the reason in words, for one that has none. */
  async rows(unit: Unit): Promise<IndexRow[]> {
    // A results file is read once: its bytes hashed, and judged as τ-bench's list or decoded for τ²'s reader.
    const bytes = unit.folder ? null : await unit.files[0]!.file.arrayBuffer();
    const facts = { file: unit.path, content_hash: await contentHash(unit.files, bytes && [bytes]) };
    let run: Tau2Run | null = null;
    if (bytes !== null && !mayOpenObject(new Uint8Array(bytes))) return this.tauBenchRows(new Uint8Array(bytes), facts);
    if (unit.folder) {
      const results = unit.files.find((f) => inside(f) === `${unit.path === '.' ? '' : `${unit.path}/`}results.json`)!;
      const sims = await Promise.all(
        unit.files.filter((f) => f !== results).map(async (f) => ({ name: f.path.split('/').at(-1)!, text: await f.file.text() })),
      );
      sims.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      run = readTau2Folder(await results.file.text(), sims);
    } else {
      run = readTau2OrNull(new TextDecoder().decode(bytes!));
      if (run === null) return this.tauBenchRows(new Uint8Array(bytes!), facts);
    }
    return tau2LibraryRows(this.tau2, run, facts);
  }

  private async tauBenchRows(bytes: Uint8Array, facts: { file: string; content_hash: string }): Promise<IndexRow[]> {
    const session = InspectSession.fromBytes(bytes, {}, this.cache, { keptEvaluations: 8 });
    const loc = await this.data.locate(
      session.domain,
      false,
      () => () => undefined,
      () => undefined,
    );
    if (!loc)
      throw new MissingData(
        this.data.kind,
        `no τ-bench ${session.domain} data in this browser: pick a τ-bench data folder (Open ▸ τ-bench data folder…) or open one run and agree to fetch it; the library is judged again once it is there`,
      );
    session.useData(await this.data.versions(loc.key, loc.read, loc.label, session));
    this.data.used(loc.key, session);
    return tauBenchRunRows(session, facts);
  }
}
