import type { ToWorker } from '../../protocol/messages';
import type { FolderFile, LibraryProblem, LibrarySource, LibraryTable } from '../../protocol/wire-types';
import { post } from '../post';
import type { FolderJudge } from './folder-library';
import { readLibraryParquet } from './parquet';
import { judgeSubmissions, submissionEntries } from './submissions';
import { libraryStats, statsBuffers, tableBuffers, type SubmissionView } from '../../core/contract';

/** The Parquet file of a folder the library reads: `runs.parquet` at any depth first, else the first `.parquet` in path order. */
export function folderParquet(files: readonly FolderFile[]): FolderFile | null {
  const parquet = files.filter((f) => /\.parquet$/i.test(f.path)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return parquet.find((f) => /(^|\/)runs\.parquet$/i.test(f.path)) ?? parquet[0] ?? null;
}

/** A picked file as the Blob DuckDB reads (the page hands over DOM Files). */
const blobOf = (f: FolderFile): Blob => {
  if (f.file instanceof Blob) return f.file;
  throw new Error(`${f.path} is not a file this browser can read`);
};

/** Opens libraries (`open-library`): the newest request only is answered. */
export class LibraryController {
  private latest = 0;
  /** The newest library's table, kept here (the page gets a copy) for `library-stats`. */
  private kept: { id: number; table: LibraryTable } | null = null;

  /** `judge`: what judges a folder without a runs.parquet (the worker's data sources and τ² runs). */
  constructor(private readonly judge: FolderJudge | null = null) {}

  async open(m: ToWorker<'open-library'>): Promise<void> {
    this.latest = m.id;
    let table: LibraryTable | null = null;
    let error: string | null = null;
    let via = '';
    let problems: LibraryProblem[] = [];
    let submissions: readonly SubmissionView[] | undefined;
    try {
      ({ table, via, problems = [], submissions } = await this.read(m.source, m.id));
    } catch (e) {
      error = (e as Error).message;
    }
    if (m.id !== this.latest) return;
    this.kept = table ? { id: m.id, table: copyTable(table) } : null;
    post({ type: 'open-library', id: m.id, table, problems, error, via, ...(submissions && { submissions }) }, table ? tableBuffers(table) : undefined);
  }

  /** The library's views for some filters (`library-stats`), computed here: the page's thread never loops over the rows. */
  stats(m: ToWorker<'library-stats'>): void {
    if (this.kept === null || this.kept.id !== m.id) return void post({ type: 'library-stats', id: m.id, seq: m.seq, stats: null, error: 'no such library' });
    try {
      const stats = libraryStats(this.kept.table, m.filters, m.rows);
      post({ type: 'library-stats', id: m.id, seq: m.seq, stats, error: null }, statsBuffers(stats));
    } catch (e) {
      post({ type: 'library-stats', id: m.id, seq: m.seq, stats: null, error: (e as Error).message });
    }
  }

  private async read(
    source: LibrarySource,
    id: number,
  ): Promise<{ table: LibraryTable; via: string; problems?: LibraryProblem[]; submissions?: readonly SubmissionView[] }> {
    switch (source.kind) {
      case 'parquet':
        return { table: await named(source.name, readLibraryParquet(source.file)), via: source.name };
      case 'url': {
        const res = await fetch(source.url);
        if (!res.ok) throw new Error(`${source.url} answered ${res.status} ${res.statusText}`.trim());
        return { table: await named(source.url, readLibraryParquet(new Uint8Array(await res.arrayBuffer()))), via: source.url };
      }
      case 'folder': {
        const progress = (done: number, total: number, episodes: number, problems: number): void =>
          void (id === this.latest && post({ type: 'library-progress', id, done, total, episodes, problems }));
        // Leaderboard submissions (<entry>/submission.json + trajectories/): their trajectories judged, claims beside them.
        const entries = submissionEntries(source.files);
        if (entries.size > 0 && this.judge) {
          const judged = await judgeSubmissions(source.name, source.files, entries, this.judge, progress, () => id === this.latest);
          return { ...judged, via: `${judged.submissions.length} leaderboard submissions, their trajectories judged in this browser` };
        }
        const parquet = folderParquet(source.files);
        if (parquet === null) {
          if (!this.judge)
            throw new Error(
              `the folder “${source.name}” holds no runs.parquet: make one with tau-inspect index ${source.name} --data … -o ${source.name}/runs.parquet`,
            );
          // No index: each results file is judged here, as an opened run would be.
          const judged = await this.judge.judge(source.files, progress, () => id === this.latest);
          return { ...judged, via: `its ${judged.table.runs.length} results files, judged in this browser` };
        }
        return { table: await named(parquet.path, readLibraryParquet(blobOf(parquet))), via: parquet.path };
      }
    }
  }
}

/** A table with its own typed arrays (the other's are transferred to the page). */
function copyTable(t: LibraryTable): LibraryTable {
  return {
    ...t,
    run: t.run.slice(),
    index: t.index.slice(),
    task: t.task.slice(),
    trial: t.trial.slice(),
    recorded: t.recorded.slice(),
    reward: t.reward.slice(),
    flags: t.flags.slice(),
    ...(t.spend && { spend: { ...Object.fromEntries(Object.entries(t.spend).map(([k, v]) => [k, v.slice()])) } as NonNullable<LibraryTable['spend']> }),
  };
}

/** A reading error said with the file it is about. */
async function named<T>(what: string, p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    throw new Error(`${what}: ${(e as Error).message}`);
  }
}
