import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { compareRuns, DEFAULT_DATA_BASE, type CompareOutcome, type InspectSession, type TrialCounts } from '../../core/contract';
import { openSession } from '../open-session';
import { compareTau2, readTau2Run } from '../tau2';
import { terminalSafe } from '../terminal';
import { UsageError } from '../usage';

export const USAGE = `usage: tau-inspect compare A.json B.json [--data DIR_OR_URL] [--json]

  Compares two runs on the same tasks (two models, or two agent strategies): per task the
  passes of each run, the tasks whose majority verdict flipped, and pass^k of both. Each file
  is re-evaluated (its own domain, data version and rule detected). Two τ²-bench runs (files or
  run folders) are compared the same way, judged as τ² judges them (--data: τ²'s data).

  --data  τ-bench data, as for evaluate. Default: $TAU_BENCH_DATA, else ${DEFAULT_DATA_BASE}
  --json  one line per task: {"task_id", "a": {"trials", "passes"}, "b": {"trials", "passes"}}`;

const OPTIONS = {
  data: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function outcomes(session: InspectSession): CompareOutcome[] {
  session.finish();
  const headers = session.headers();
  return session.summaries().map((s, i) => ({ index: i, taskId: headers[i]!.taskId, trial: headers[i]!.trial, reward: s.error === null ? s.reward : null }));
}

const counts = (c: TrialCounts): string => (c.trials === 0 ? '–' : `${c.passes}/${c.trials}`);

/** `tau-inspect compare A.json B.json …` */
export async function compareCommand(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (positionals.length < 2) throw new UsageError(positionals.length === 0 ? 'missing A.json and B.json' : 'missing B.json');
  if (positionals.length > 2) throw new UsageError(`unexpected argument '${positionals[2]}'`);
  const [fa, fb] = positionals as [string, string];
  const [ta, tb] = [await readTau2Run(fa), await readTau2Run(fb)];
  if ((ta === null) !== (tb === null)) throw new UsageError(`${ta ? fa : fb} is a τ²-bench run and ${ta ? fb : fa} a τ-bench run: they cannot be compared task by task`);
  if (ta && tb) {
    await compareTau2({ name: basename(fa), run: ta }, { name: basename(fb), run: tb }, values.data, values.json === true);
    return 0;
  }
  const data = values.data ?? (process.env.TAU_BENCH_DATA || DEFAULT_DATA_BASE);
  const a = await openSession(fa, data, {});
  const b = await openSession(fb, data, {});
  const cmp = compareRuns(outcomes(a), outcomes(b));
  const notes = [
    `A: ${basename(fa)} (${a.domain}, data ${a.detection().dataCommit.slice(0, 7)}, rule ${a.detection().rule})`,
    `B: ${basename(fb)} (${b.domain}, data ${b.detection().dataCommit.slice(0, 7)}, rule ${b.detection().rule})`,
  ];
  if (a.domain !== b.domain) notes.push(`warning: A is ${a.domain} and B is ${b.domain}; the task ids do not name the same tasks`);
  if (values.json) {
    process.stderr.write(notes.map(terminalSafe).join('\n') + '\n');
    process.stdout.write(cmp.tasks.map((t) => JSON.stringify({ task_id: t.taskId, a: t.a, b: t.b })).join('\n') + (cmp.tasks.length ? '\n' : ''));
    return 0;
  }
  const rows = [['task', 'A', 'B', '']];
  for (const t of cmp.tasks) rows.push([String(t.taskId), counts(t.a), counts(t.b), t.flip === 'gained' ? 'B passes, A did not' : t.flip === 'lost' ? 'A passed, B does not' : '']);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const table = rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ').trimEnd()).join('\n');
  const pk = (side: 'a' | 'b') => cmp.passK[side].map((p) => `pass^${p.k} ${p.value.toFixed(3)}`).join('  ');
  process.stdout.write(
    `${notes.map(terminalSafe).join('\n')}\n\n${table}\n\n${cmp.tasks.length} tasks; flipped: ${cmp.gained} now passed by B, ${cmp.lost} no longer passed by B\nA  ${pk('a')}\nB  ${pk('b')}\n`,
  );
  return 0;
}
