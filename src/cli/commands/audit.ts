import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { AUDIT_TEXT, auditTasks, indexTable, inertJson, type AuditFinding, type IndexRow } from '../../core/contract';
import { IndexPool } from '../library/pool';
import { contentHash, findRuns } from '../library/walk';
import { terminalSafe } from '../terminal';
import { parseCommand, positionalFiles, UsageError } from '../usage';
import { dataRoots, positiveInt } from './index';

export const USAGE = `usage: tau-inspect audit DIR… [--data V1_DATA] [--data TAU2_DATA] [--jobs N] [--json]

  The task audit: every results file (and τ² run folder) under the folders named is judged as index does,
  and each task of each benchmark and domain is checked across all its runs, deterministically (no LLM):
  reference actions that raise on replay, a reference that leaves the DB as it started, required information
  that no tool output of the reference replay holds, env assertions that fail on the reference replay, tasks
  no run passes and tasks every run passes, and tasks whose recorded and recomputed verdicts disagree in two
  runs or more. Each finding names a simulation (file and position) that shows it. The app's library lists
  the same findings (Library ▸ Task audit).

  --data     as for index: a τ-bench data folder or URL and a τ² one
  --jobs     worker threads (default: the number of cores)
  --json     one JSON object: {"findings": [...], "bad_files": [...]}`;

const OPTIONS = {
  data: { type: 'string', multiple: true },
  jobs: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The arguments of a command that judges the runs under folders (`audit`, `submissions`): null after --help. */
export function runsArgs(args: string[], usage: string, most: number, missing: string) {
  const parsed = parseCommand(args, OPTIONS, usage);
  if (parsed === null) return null;
  const values = parsed.values;
  return {
    json: values.json,
    data: dataRoots(values.data ?? []),
    jobs: values.jobs === undefined ? availableParallelism() : positiveInt(values.jobs, '--jobs'),
    dirs: positionalFiles(parsed.positionals, 1, most, missing),
  };
}

/** A finding as `--json` writes it. */
export function auditJson(f: AuditFinding) {
  return {
    kind: f.kind,
    benchmark: f.benchmark,
    domain: f.domain,
    task: f.task,
    runs: f.runs,
    showing: f.showing,
    example: { file: f.example.file, index: f.example.index },
  };
}

/** `tau-inspect audit DIR… [--data …] [--json]` */
export async function auditCommand(args: string[]): Promise<number> {
  const a = runsArgs(args, USAGE, Infinity, 'missing DIR (a folder of results files)');
  if (a === null) return 0;
  const { data, jobs, dirs } = a;
  for (const d of dirs) if (!existsSync(d)) throw new UsageError(`cannot read ${d}: no such file or folder`);
  const runs = await findRuns(dirs);
  const rows: IndexRow[] = [];
  const bad: { file: string; reason: string }[] = [];
  const todo = runs.filter((r) => {
    if (r.kind !== 'unreadable') return true;
    bad.push({ file: r.path, reason: r.reason ?? 'cannot be read' });
    return false;
  });
  if (todo.length > 0) {
    const pool = new IndexPool(Math.min(jobs, todo.length), data);
    try {
      await Promise.all(
        todo.map(async (run) => {
          const hash = await contentHash(run).catch((e: Error) => e);
          if (hash instanceof Error) return void bad.push({ file: run.path, reason: `cannot be read: ${hash.message}` });
          const outcome = await pool.run(run, hash);
          if ('rows' in outcome) rows.push(...outcome.rows);
          else bad.push({ file: run.path, reason: outcome.error });
        }),
      );
    } finally {
      await pool.close();
    }
  }
  // Files in path order, rows in file order: the same table whatever order the workers finished in.
  rows.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.index - b.index));
  bad.sort((a, b) => (a.file < b.file ? -1 : 1));
  const findings = auditTasks(indexTable(rows));
  if (a.json) {
    process.stdout.write(inertJson({ findings: findings.map(auditJson), bad_files: bad }) + '\n');
    return 0;
  }
  const out: string[] = [];
  let group = '';
  for (const f of findings) {
    const g = `${f.benchmark} ${f.domain}`;
    if (g !== group) out.push(`${out.length > 0 ? '\n' : ''}${(group = g)}`);
    out.push(`  task ${f.task}: ${f.kind} — ${AUDIT_TEXT[f.kind]}; ${f.showing} of ${f.runs} runs; e.g. ${f.example.file} #${f.example.index}`);
  }
  for (const b of bad) out.push(`bad file: ${b.file}: ${b.reason}`);
  out.push(
    `${findings.length} findings over ${new Set(rows.map((r) => r.file)).size} runs (${rows.length} episodes)${bad.length > 0 ? `, ${bad.length} bad files` : ''}`,
  );
  process.stdout.write(out.map(terminalSafe).join('\n') + '\n');
  return 0;
}
