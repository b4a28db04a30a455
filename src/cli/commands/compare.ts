import { basename } from 'node:path';
import {
  compareRuns,
  describeApart,
  shortData,
  DEFAULT_DATA_BASE,
  inertJson,
  type CompareOutcome,
  type InspectSession,
  type RunComparison,
  type RunJudging,
} from '../../core/contract';
import { openSession } from '../open-session';
import { compareTau2, readTau2Run } from '../tau2/commands';
import { compareText } from '../compare-table';
import { terminalSafe } from '../terminal';
import { parseCommand, positionalFiles, UsageError } from '../usage';

export const USAGE = `usage: tau-inspect compare A.json B.json [--data DIR_OR_URL] [--json]

  Compares two runs on the same tasks (two models, or two agent strategies): per task the
  passes of each run, the tasks whose majority verdict flipped, and pass^k of both. Each file
  is re-evaluated (its own domain, data version and rule detected). Two τ²-bench runs (files or
  run folders) are compared the same way, judged as τ² judges them (--data: τ²'s data).

  --data  τ-bench data, as for evaluate. Default: $TAU_BENCH_DATA, else ${DEFAULT_DATA_BASE}
  When A and B were judged by different data versions, rules or domains, the output says so; flips
  are counted only with both runs judged by one rule (A's, each episode of B judged again by it),
  and given under both rules.

  --json  one line per task: {"task_id", "a": {"trials", "passes"}, "b": {"trials", "passes"},
          "flip": "gained"|"lost"|null} (the notes and warnings go to stderr)`;

const OPTIONS = {
  data: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Every episode evaluated (the rule settled), with its reward under the run's rule and under both. */
function outcomes(session: InspectSession): CompareOutcome[] {
  return session
    .evaluateAll()
    .map((r, i) => ({ index: i, taskId: r.task_id, trial: r.trial, reward: r.error === undefined ? (r.reward ?? null) : null, rewards: r.rules ?? null }));
}

const judging = (s: InspectSession): RunJudging => s.detection();

/** The warning when A and B were judged apart, and how the flips were counted. */
function apartNotes(cmp: RunComparison): string[] {
  if (cmp.judgedApart.length === 0) return [];
  const out = [`warning: A and B were judged differently: ${describeApart(cmp.judgedApart)}`];
  if (cmp.judgedApart.some((x) => x.what === 'domain')) out.push('warning: the task ids do not name the same tasks');
  if (cmp.judgedApart.some((x) => x.what === 'rule'))
    out.push(
      cmp.flipsCounted
        ? `flips are counted with both runs judged by one rule: ${cmp.flipsByRule.map((f) => `under ${f.rule}, ${f.gained} now passed by B and ${f.lost} no longer`).join('; ')}; the table's flips use ${cmp.flipRule}`
        : 'flips are not counted: the runs were judged by different rules',
    );
  return out;
}

const flipLine = (cmp: RunComparison): string =>
  !cmp.flipsCounted
    ? 'flipped: not counted (A and B were judged by different rules)'
    : `flipped${cmp.judgedApart.some((x) => x.what === 'rule') ? ` (both judged by ${cmp.flipRule})` : ''}: ${cmp.gained} now passed by B, ${cmp.lost} no longer passed by B`;

/** `tau-inspect compare A.json B.json …` */
export async function compareCommand(args: string[]): Promise<number> {
  const parsed = parseCommand(args, OPTIONS, USAGE);
  if (parsed === null) return 0;
  const { values, positionals } = parsed;
  const [fa, fb] = positionalFiles(positionals, 2, 2, positionals.length === 0 ? 'missing A.json and B.json' : 'missing B.json') as [string, string];
  const [ta, tb] = [await readTau2Run(fa), await readTau2Run(fb)];
  if ((ta === null) !== (tb === null))
    throw new UsageError(`${ta ? fa : fb} is a τ²-bench run and ${ta ? fb : fa} a τ-bench run: they cannot be compared task by task`);
  if (ta && tb) {
    await compareTau2({ name: basename(fa), run: ta }, { name: basename(fb), run: tb }, values.data, values.json === true);
    return 0;
  }
  const data = values.data ?? (process.env.TAU_BENCH_DATA || DEFAULT_DATA_BASE);
  const a = await openSession(fa, data, {});
  const b = await openSession(fb, data, {});
  const cmp = compareRuns(outcomes(a), outcomes(b), { a: judging(a), b: judging(b) });
  const notes = [
    `A: ${basename(fa)} (${a.domain}, data ${shortData(a.detection().data)}, rule ${a.detection().rule})`,
    `B: ${basename(fb)} (${b.domain}, data ${shortData(b.detection().data)}, rule ${b.detection().rule})`,
    ...apartNotes(cmp),
  ];
  if (values.json) {
    process.stderr.write(notes.map(terminalSafe).join('\n') + '\n');
    process.stdout.write(cmp.tasks.map((t) => inertJson({ task_id: t.taskId, a: t.a, b: t.b, flip: t.flip })).join('\n') + (cmp.tasks.length ? '\n' : ''));
    return 0;
  }
  process.stdout.write(compareText(notes, cmp, String, flipLine(cmp)));
  return 0;
}
