import type { RecordChangeView, StepView } from '../../core/contract';

/** A record as it stands after the selected step. */
export interface TouchedRecord {
  readonly id: string;
  readonly table: string;
  readonly key: string;
  /** Pretty JSON after the last change; null when the record was deleted. */
  readonly json: string | null;
  readonly firstStep: number;
  readonly lastStep: number;
  /** This record's change in the selected step, if it changed there. */
  readonly current: RecordChangeView | null;
}

/** Records changed in steps 0..step, latest version of each, in the order they were first touched. */
export function touchedRecords(steps: readonly StepView[], step: number): TouchedRecord[] {
  const byId = new Map<string, TouchedRecord>();
  const last = Math.min(step, steps.length - 1);
  for (let i = 0; i <= last; i++)
    for (const c of steps[i]!.changes) {
      const id = `${c.table}/${c.key}`;
      const prev = byId.get(id);
      byId.set(id, { id, table: c.table, key: c.key, json: c.after, firstStep: prev?.firstStep ?? i, lastStep: i, current: i === last ? c : null });
    }
  return [...byId.values()];
}

type Segment = string | number;

function pathText(path: readonly Segment[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`))
    .join('')
    .replace(/^\./, '');
}

const CLOSING = /^[}\]],?$/;
const KEY = /^("(?:[^"\\]|\\.)*"): /;

/**
 * The field path of each line of pretty JSON as the core prints it (core `pyJson`), written
 * like FieldChangeView.path; a container's closing line carries the container's path.
 */
export function linePaths(json: string): string[] {
  const stack: { path: Segment[]; array: boolean; next: number }[] = [];
  const out: string[] = [];
  for (const raw of json.split('\n')) {
    const line = raw.trim();
    if (CLOSING.test(line)) {
      out.push(pathText(stack.pop()?.path ?? []));
      continue;
    }
    const parent = stack[stack.length - 1];
    let path: Segment[] = [];
    let value = line;
    if (parent?.array) path = [...parent.path, parent.next++];
    else if (parent) {
      const m = KEY.exec(line);
      path = m ? [...parent.path, JSON.parse(m[1]!) as string] : parent.path;
      if (m) value = line.slice(m[0].length);
    }
    out.push(pathText(path));
    if (value === '{' || value === '[') stack.push({ path, array: value === '[', next: 0 });
  }
  return out;
}

export const WHOLE_RECORD = '(whole record)';

const within = (line: string, path: string): boolean =>
  path === WHOLE_RECORD || line === path || (line.startsWith(path) && (line[path.length] === '.' || line[path.length] === '['));

export interface Chunk {
  readonly text: string;
  readonly marked: boolean;
}

/** Pretty JSON cut into runs of lines, the lines at or under any of `paths` marked. */
export function markLines(json: string, paths: readonly string[]): Chunk[] {
  const lines = json.split('\n');
  if (paths.length === 0) return [{ text: json, marked: false }];
  const where = linePaths(json);
  const chunks: Chunk[] = [];
  let start = 0;
  const markedAt = (i: number): boolean => paths.some((p) => within(where[i] ?? '', p));
  let marked = markedAt(0);
  for (let i = 1; i <= lines.length; i++) {
    const m = i < lines.length ? markedAt(i) : !marked;
    if (m !== marked) {
      chunks.push({ text: lines.slice(start, i).join('\n'), marked });
      start = i;
      marked = m;
    }
  }
  return chunks;
}
