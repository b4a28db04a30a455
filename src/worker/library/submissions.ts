/**
 * A picked folder laid out as tau2-bench's leaderboard (`<entry>/submission.json` beside `<entry>/trajectories/`, or
 * one entry picked itself): every trajectory file judged into the library's rows as any folder's runs are
 * (`FolderJudge`), and each entry's claims held against them by core's `submissionView` — what
 * `tau-inspect submissions` prints.
 */
import {
  parseSubmission,
  SUBMISSION_FILE,
  submissionView,
  TRAJECTORIES_DIR,
  type IndexRow,
  type SubmissionFile,
  type SubmissionView,
} from '../../core/contract';
import type { FolderFile, LibraryProblem, LibraryTable } from '../../protocol/wire-types';
import type { FolderJudge } from './folder-library';

/** A file's path inside the picked folder (the folder's own name left out). */
const inside = (f: FolderFile): string => f.path.replace(/\\/g, '/').split('/').slice(1).join('/');

/** The entries of a picked folder, by their path inside it ('' for the folder itself): where a submission.json is, at the top or one folder down. */
export function submissionEntries(files: readonly FolderFile[]): Map<string, FolderFile> {
  const out = new Map<string, FolderFile>();
  for (const f of files) {
    const p = inside(f);
    if (p === SUBMISSION_FILE) out.set('', f);
    else if (/^[^/]+\/submission\.json$/.test(p)) out.set(p.slice(0, -SUBMISSION_FILE.length - 1), f);
  }
  return out;
}

/** The entries' trajectory files judged (the library's table of them) and each entry's claims beside them. */
export async function judgeSubmissions(
  name: string,
  files: readonly FolderFile[],
  entries: ReadonlyMap<string, FolderFile>,
  judge: FolderJudge,
  progress: (done: number, total: number, episodes: number, problems: number) => void,
  live: () => boolean,
): Promise<{ table: LibraryTable; problems: LibraryProblem[]; submissions: SubmissionView[] }> {
  const dirOf = (entry: string): string => (entry === '' ? `${TRAJECTORIES_DIR}/` : `${entry}/${TRAJECTORIES_DIR}/`);
  const trajectories = files.filter((f) => [...entries.keys()].some((e) => inside(f).startsWith(dirOf(e))));
  const rows = new Map<string, readonly IndexRow[]>();
  const { table, problems } = await judge.judge(trajectories, progress, live, (path, judged) => void rows.set(path, judged));
  const submissions = await Promise.all(
    [...entries.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(async ([entry, file]) => {
        const dir = dirOf(entry);
        const judged: SubmissionFile[] = [
          ...[...rows.entries()].filter(([p]) => p.startsWith(dir)).map(([p, r]) => ({ name: p.slice(dir.length), rows: r, error: null })),
          ...problems.filter((p) => p.file.startsWith(dir)).map((p) => ({ name: p.file.slice(dir.length), rows: null, error: p.reason })),
        ];
        const hasDir = files.some((f) => inside(f).startsWith(dir));
        return submissionView(entry === '' ? name : entry, parseSubmission(await file.file.text()), hasDir ? judged : null);
      }),
  );
  return { table, problems, submissions };
}
