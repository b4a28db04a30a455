import type { RecordChangeView, RecordLine, StepView } from '../../core/contract';

/** A record as it stands after the selected step. */
export interface TouchedRecord {
  readonly id: string;
  readonly table: string;
  readonly key: string;
  /** The record after its last change, line by line; null when it was deleted. */
  readonly lines: readonly RecordLine[] | null;
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
      byId.set(id, { id, table: c.table, key: c.key, lines: c.afterLines, firstStep: prev?.firstStep ?? i, lastStep: i, current: i === last ? c : null });
    }
  return [...byId.values()];
}

export interface Chunk {
  readonly text: string;
  readonly marked: boolean;
}

/** Runs of consecutive lines with the same mark (`marked` only when `mark` is on), to render as blocks. */
export function chunkLines(lines: readonly RecordLine[], mark: boolean): Chunk[] {
  const chunks: { text: string[]; marked: boolean }[] = [];
  for (const l of lines) {
    const marked = mark && l.marked;
    const last = chunks[chunks.length - 1];
    if (last && last.marked === marked) last.text.push(l.text);
    else chunks.push({ text: [l.text], marked });
  }
  return chunks.map((c) => ({ text: c.text.join('\n'), marked: c.marked }));
}
