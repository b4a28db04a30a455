/**
 * A τ² results file that is not valid JSON (cut off, a broken byte, a bad edit): its `tasks` and
 * `simulations` lists are read element by element, so the damage costs only the elements it falls
 * in; every other simulation is read and judged. Each damaged element is named with its line and
 * column in the file.
 */
import { lineColumn, scanList, type ListItem } from '../../../py/json-parse';
import type { PyValue } from '../../../py/value';
import type { TDict, TValue } from '../../../py/pydantic';

/** The parts of a damaged results object that could be read, and the damage in words. */
export interface DamagedTau2 {
  readonly root: TDict;
  readonly notes: readonly string[];
}

/** The place json.loads names is relative to the list read; the note names the place in the file instead. */
const withoutPlace = (s: string): string => s.replace(/( starting at)?:? line \d+ column \d+ \(char \d+\)/g, '');

const isDictWith =
  (...keys: string[]) =>
  (v: PyValue): boolean =>
    v instanceof Map && keys.every((k) => v.has(k));

function listAfter(text: string, key: string, isElement: (v: PyValue) => boolean, resumeAt: RegExp, what: string, notes: string[]): TValue[] | null {
  const m = new RegExp(`"${key}"\\s*:\\s*\\[`).exec(text);
  if (!m) return null;
  const at = m.index + m[0].length - 1;
  const scan = scanList(text.slice(at), isElement, resumeAt);
  if (!scan) return null;
  const out: TValue[] = [];
  scan.items.forEach((item: ListItem, i) => {
    if (item.ok) out.push(item.value as TValue);
    else {
      // Kept as a hole, so the elements after it keep their positions in the file.
      out.push(null);
      const where = lineColumn(text, at + item.damage.pos);
      notes.push(
        `${what} ${i} is damaged at line ${where.line} column ${where.column} (char ${where.char}): ${withoutPlace(item.damage.error.text)}; the others are read`,
      );
    }
  });
  // The list's own end is missing when the file is cut inside it.
  for (const d of scan.outside)
    if (!d.error.text.startsWith('Extra data')) notes.push(`${what} list: ${withoutPlace(d.error.text)} at line ${lineColumn(text, at + d.pos).line}`);
  return out;
}

/** The readable parts of a damaged τ² results text, or null when it shows no τ² lists at all. */
export function readDamagedTau2(text: string): DamagedTau2 | null {
  const notes: string[] = [];
  const tasks = listAfter(text, 'tasks', isDictWith('id'), /\{\s*"id"/, 'task', notes);
  const simulations = listAfter(text, 'simulations', isDictWith('task_id', 'messages'), /\{\s*"id"/, 'simulation', notes);
  if (tasks === null || simulations === null) return null;
  const field = (name: string): string | null => new RegExp(`"${name}"\\s*:\\s*"([^"\\\\]*)"`).exec(text)?.[1] ?? null;
  const info: TDict = new Map<string, TValue>([
    ['environment_info', new Map([['domain_name', field('domain_name')]])],
    ['agent_info', new Map([['implementation', field('implementation')]])],
    ['git_commit', field('git_commit')],
  ]);
  notes.unshift('the file is not valid JSON: its tasks and simulations were read one by one (the run information only as far as it could be found)');
  return {
    root: new Map<string, TValue>([
      ['info', info],
      ['tasks', tasks],
      ['simulations', simulations],
    ]),
    notes,
  };
}
