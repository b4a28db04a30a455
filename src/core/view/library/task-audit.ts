/**
 * The task audit: per task of a benchmark and domain, across every run of the library, what the task itself or the
 * runs say about it — deterministic, from the index's columns (no LLM): the gold replay's findings each row carries
 * (reference actions that raise, a reference that changes nothing, required information no tool output of the
 * reference holds, env assertions the reference itself fails), tasks no run passes or every run passes, and tasks
 * whose recorded and recomputed verdicts disagree in two runs or more. The app (over a `runs.parquet` or a folder)
 * and `tau-inspect audit` compute it with this one function, so they list the same findings.
 */
import { isSuccess } from '../pass-k';
import { tau2TaskOrder } from '../tau2/summary';
import { LIBRARY_FLAG, type LibraryTable } from './table';

export const AUDIT_KINDS = [
  'gold-action-raises',
  'gold-no-op',
  'gold-info-unseen',
  'gold-assertion-fails',
  'no-run-passes',
  'every-run-passes',
  'verdicts-disagree',
  'evaluate-trajs-differs',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** Each kind in words. */
export const AUDIT_TEXT: Readonly<Record<AuditKind, string>> = {
  'gold-action-raises': 'a reference action raises when replayed (the benchmark skips it silently: the reference DB lacks its effect)',
  'gold-no-op': 'the reference leaves the DB as it started (an agent that does nothing passes the DB check)',
  'gold-info-unseen':
    'required information is in no tool output of the reference replay (not readable from the tools as written: computed, or from the user or the policy)',
  'gold-assertion-fails': 'an env assertion fails on the reference replay itself',
  'no-run-passes': 'no run passes it (no trial of any run, recomputed; two runs or more)',
  'every-run-passes': 'every trial of every run passes it (two runs or more)',
  'verdicts-disagree': 'recorded and recomputed verdicts disagree in two runs or more',
  'evaluate-trajs-differs':
    'tau2 evaluate-trajs would give another reward than the run was judged by when it was made (its solo-mode detection or its lenient replay, #502)',
};

/** Which row flag each gold kind comes from. */
const GOLD_FLAGS: readonly (readonly [AuditKind, number])[] = [
  ['gold-action-raises', LIBRARY_FLAG.goldRaises],
  ['gold-no-op', LIBRARY_FLAG.noopReference],
  ['gold-info-unseen', LIBRARY_FLAG.goldInfoUnseen],
  ['gold-assertion-fails', LIBRARY_FLAG.goldAssertionFails],
];

export interface AuditFinding {
  readonly kind: AuditKind;
  readonly benchmark: string;
  readonly domain: string;
  readonly task: string;
  /** Runs of the library holding the task. */
  readonly runs: number;
  /** How many runs show it (for the gold kinds: runs whose rows carry the finding). */
  readonly showing: number;
  /** A simulation (or episode) that shows it: its run (index into `runs`), that run's file and its position there. */
  readonly example: { readonly run: number; readonly file: string; readonly index: number };
}

interface TaskRows {
  benchmark: string;
  domain: string;
  task: string;
  rows: number[];
}

/** The task audit of a library (every run; filter the table first for fewer), in benchmark, domain, task and kind order. */
export function auditTasks(t: LibraryTable): AuditFinding[] {
  const byTask = new Map<string, TaskRows>();
  for (let i = 0; i < t.run.length; i++) {
    if (t.task[i]! < 0) continue;
    const info = t.runs[t.run[i]!]!;
    const domain = info.domain ?? '(none)';
    const task = t.tasks[t.task[i]!]!;
    const key = `${info.benchmark}\u0000${domain}\u0000${task}`;
    let g = byTask.get(key);
    if (!g) byTask.set(key, (g = { benchmark: info.benchmark, domain, task, rows: [] }));
    g.rows.push(i);
  }
  const groups = new Map<string, TaskRows[]>();
  for (const g of byTask.values()) {
    const k = `${g.benchmark}\u0000${g.domain}`;
    groups.set(k, [...(groups.get(k) ?? []), g]);
  }
  const out: AuditFinding[] = [];
  for (const k of [...groups.keys()].sort()) {
    const tasks = new Map(groups.get(k)!.map((g) => [g.task, g]));
    for (const id of tau2TaskOrder(tasks.keys())) out.push(...auditTask(t, tasks.get(id)!));
  }
  return out;
}

function auditTask(t: LibraryTable, g: TaskRows): AuditFinding[] {
  const runs = new Set(g.rows.map((i) => t.run[i]!));
  const found = (kind: AuditKind, rows: readonly number[]): AuditFinding => ({
    kind,
    benchmark: g.benchmark,
    domain: g.domain,
    task: g.task,
    runs: runs.size,
    showing: new Set(rows.map((i) => t.run[i]!)).size,
    example: { run: t.run[rows[0]!]!, file: t.runs[t.run[rows[0]!]!]!.file, index: t.index[rows[0]!]! },
  });
  const out: AuditFinding[] = [];
  for (const [kind, flag] of GOLD_FLAGS) {
    const rows = g.rows.filter((i) => (t.flags[i]! & flag) !== 0);
    if (rows.length > 0) out.push(found(kind, rows));
  }
  // An episode that cannot be judged counts as failed, as everywhere in the library.
  const pass = (i: number): boolean => (t.flags[i]! & LIBRARY_FLAG.error) === 0 && !Number.isNaN(t.reward[i]!) && isSuccess(t.reward[i]!);
  const judged = g.rows.filter((i) => (t.flags[i]! & LIBRARY_FLAG.infrastructure) === 0);
  // Across runs: a task of one run says nothing about the task.
  const across = runs.size >= 2 && judged.length > 0 && new Set(judged.map((i) => t.run[i]!)).size === runs.size;
  if (across && judged.every((i) => !pass(i))) out.push(found('no-run-passes', judged));
  if (across && judged.every(pass)) out.push(found('every-run-passes', judged));
  const disagree = g.rows.filter((i) => (t.flags[i]! & LIBRARY_FLAG.disagree) !== 0);
  if (new Set(disagree.map((i) => t.run[i]!)).size >= 2) out.push(found('verdicts-disagree', disagree));
  // How a run was judged (one run is enough: the rule, not the task, differs).
  const trajs = g.rows.filter((i) => (t.flags[i]! & LIBRARY_FLAG.evaluateTrajsDiffers) !== 0);
  if (trajs.length > 0) out.push(found('evaluate-trajs-differs', trajs));
  return out;
}
