import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import {
  claimFlagText,
  formatPercent,
  inertJson,
  parseSubmission,
  SUBMISSION_FILE,
  submissionJson,
  submissionView,
  TRAJECTORIES_DIR,
  type IndexRow,
  type SubmissionFile,
  type SubmissionView,
} from '../../core/contract';
import { contentHash, findRuns } from '../library/walk';
import { IndexPool } from '../library/pool';
import { terminalSafe } from '../terminal';
import { UsageError } from '../usage';
import { runsArgs } from './audit';

export const USAGE = `usage: tau-inspect submissions DIR [--data TAU2_DATA] [--jobs N] [--json]

  Leaderboard submissions re-judged. DIR is laid out as tau2-bench's leaderboard: one folder per entry with its
  submission.json and a trajectories/ folder (or DIR is one such entry). For each entry and domain, the pass^k it
  claims (results.<domain>.pass_1…pass_4, in percent) beside the pass^k of the trajectory file it names
  (trajectory_files.<domain>) — recomputed by tau-inspect's judge and from the rewards the file records, τ²'s
  convention — with a claim beyond its own rounding from the recomputed value flagged. Files the submission names
  but trajectories/ lacks are listed; a malformed submission.json is named field by field and the rest is still
  compared. The app's library shows the same view when the folder opened holds */submission.json.

  --data     a τ² data folder or URL (as for evaluate)
  --jobs     worker threads (default: the number of cores)
  --json     one JSON object: {"submissions": [...]}`;

const isDir = (p: string): Promise<boolean> =>
  stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );

/** The entries under `dir` (folders holding submission.json, by name), or `dir` itself when it is one. */
async function entriesOf(dir: string): Promise<string[]> {
  if (existsSync(join(dir, SUBMISSION_FILE))) return [dir];
  const names = (await readdir(dir)).sort();
  const out: string[] = [];
  for (const n of names) if ((await isDir(join(dir, n))) && existsSync(join(dir, n, SUBMISSION_FILE))) out.push(join(dir, n));
  return out;
}

/** `tau-inspect submissions DIR [--data …] [--json]` */
export async function submissionsCommand(args: string[]): Promise<number> {
  const a = runsArgs(args, USAGE, 1, 'missing DIR (a folder of leaderboard submissions)');
  if (a === null) return 0;
  const { data, jobs, dirs } = a;
  const dir = dirs[0]!;
  if (!(await isDir(dir))) throw new UsageError(`cannot read ${dir}: not a folder`);
  const entries = await entriesOf(dir);
  if (entries.length === 0) throw new UsageError(`${dir} holds no submission (a folder <entry>/ with ${SUBMISSION_FILE} and ${TRAJECTORIES_DIR}/)`);
  const views: SubmissionView[] = [];
  const pool = new IndexPool(Math.max(1, jobs), data);
  try {
    for (const entry of entries) {
      const sub = parseSubmission(await readFile(join(entry, SUBMISSION_FILE), 'utf8'));
      const root = join(entry, TRAJECTORIES_DIR);
      const found = (await isDir(root)) ? await findRuns([root]) : null;
      // Only the files the submission names are judged (all of them when it names none).
      const named = sub.trajectoryFiles === null ? null : new Set(sub.trajectoryFiles.values());
      const files: SubmissionFile[] | null =
        found === null
          ? null
          : await Promise.all(
              found.map(async (run): Promise<SubmissionFile> => {
                const name = relative(root, run.path).split('\\').join('/');
                if (named !== null && !named.has(name)) return { name, rows: null, error: null };
                if (run.kind === 'unreadable') return { name, rows: null, error: run.reason ?? 'cannot be read' };
                const hash = await contentHash(run).catch((e: Error) => e);
                if (hash instanceof Error) return { name, rows: null, error: `cannot be read: ${hash.message}` };
                const outcome = await pool.run(run, hash);
                return 'rows' in outcome ? { name, rows: outcome.rows as IndexRow[], error: null } : { name, rows: null, error: outcome.error };
              }),
            );
      views.push(submissionView(basename(entry), sub, files));
    }
  } finally {
    await pool.close();
  }
  if (a.json) {
    process.stdout.write(inertJson({ submissions: views.map(submissionJson) }) + '\n');
    return 0;
  }
  process.stdout.write(views.flatMap(entryLines).map(terminalSafe).join('\n') + '\n');
  const flagged = views.reduce((n, v) => n + v.flagged, 0);
  process.stdout.write(`${views.length} submission${views.length === 1 ? '' : 's'}, ${flagged} claim${flagged === 1 ? '' : 's'} flagged\n`);
  return 0;
}

function entryLines(v: SubmissionView): string[] {
  const out = [
    `${v.entry}: ${v.modelName ?? '(no model_name)'}${v.organization ? ` (${v.organization})` : ''}${v.submissionType ? `, ${v.submissionType}` : ''}`,
  ];
  for (const e of v.errors) out.push(`  submission.json: ${e}`);
  for (const n of v.notes) out.push(`  note: ${n}`);
  for (const d of v.domains) {
    const where = d.file === null ? 'no trajectory file named' : d.file;
    if (d.missing) out.push(`  ${d.domain}: ${where}: missing (named in trajectory_files, not under ${TRAJECTORIES_DIR}/)`);
    else if (d.error !== null) out.push(`  ${d.domain}: ${where}: ${d.error}`);
    else if (d.file !== null)
      out.push(
        `  ${d.domain}: ${where}: ${d.tasks} tasks × ${d.trials} trials (${d.simulations} simulations${d.notEvaluable > 0 ? `, ${d.notEvaluable} not evaluable: counted as failed` : ''}${
          d.evaluateTrajsDiffers > 0 ? `, ${d.evaluateTrajsDiffers} judged otherwise by tau2 evaluate-trajs` : ''
        })`,
      );
    else out.push(`  ${d.domain}: ${where}`);
    for (const p of d.passK) {
      const flag = claimFlagText(p);
      out.push(
        `    pass^${p.k}  claimed ${formatPercent(p.claimed, '-')}  recomputed ${formatPercent(p.recomputed, '-')}  recorded ${formatPercent(p.recorded, '-')}${flag ? `  ← ${flag}` : ''}`,
      );
    }
    if (d.claimedCost !== null || d.recordedCost !== null)
      out.push(`    cost    claimed ${d.claimedCost ?? '-'}  recorded ${d.recordedCost ?? '-'} (mean agent_cost per simulation, USD)`);
  }
  for (const f of v.unnamedFiles) out.push(`  ${TRAJECTORIES_DIR}/${f}: not named in trajectory_files`);
  return out;
}
