import { formatCounts, formatPassK, type RunComparison } from '../core/contract';
import { terminalSafe } from './terminal';

const FLIP_TEXT = { gained: 'B passes, A did not', lost: 'A passed, B does not' } as const;

/** `compare`'s text output for τ-bench and τ² alike: the notes, one row per task, the flips line, pass^k of both. */
export function compareText(notes: readonly string[], cmp: RunComparison, taskName: (taskId: number) => string, flipLine: string): string {
  const rows = [['task', 'A', 'B', '']];
  for (const t of cmp.tasks) rows.push([terminalSafe(taskName(t.taskId)), formatCounts(t.a), formatCounts(t.b), t.flip ? FLIP_TEXT[t.flip] : '']);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => [...r[c]!].length)));
  const table = rows
    .map((r) =>
      r
        .map((cell, c) => (c === r.length - 1 ? cell : cell + ' '.repeat(widths[c]! - [...cell].length)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
  const pk = (side: 'a' | 'b') => formatPassK(cmp.passK[side], '  ');
  return `${notes.map(terminalSafe).join('\n')}\n\n${table}\n\n${cmp.tasks.length} tasks; ${flipLine}\nA  ${pk('a')}\nB  ${pk('b')}\n`;
}
