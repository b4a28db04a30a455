import type { StateCreator } from 'zustand/vanilla';
import type { TeachMarks } from '../core/contract';
import type { AppState } from './app-store';

/**
 * Teaching mode ("judge it yourself"): the open episode shown with its checks as questions and its verdict hidden; the
 * student's marks, and whether the verdict is revealed. Marks belong to one episode of one run: another episode (or
 * run) starts blank. The same for every benchmark (the checks are the benchmark's sheet, core/view/teach.ts).
 */
export interface TeachState {
  readonly run: number | null;
  readonly episode: number | null;
  readonly marks: TeachMarks;
  readonly revealed: boolean;
}

export interface TeachSlice {
  /** null: not teaching. */
  teach: TeachState | null;
  startTeaching(): void;
  stopTeaching(): void;
  /** Marks a component or check (by the sheet's key) met or not; null takes the mark back. */
  markTeach(key: string, met: boolean | null): void;
  revealTeach(): void;
  /** Hides the verdict again and clears the marks. */
  retryTeach(): void;
}

const BLANK: TeachState = { run: null, episode: null, marks: {}, revealed: false };

/** The marks and reveal of the open episode (blank when they belong to another). */
export function teachOf(t: TeachState | null, run: number | null, episode: number | null): TeachState | null {
  if (t === null) return null;
  return t.run === run && t.episode === episode ? t : { ...BLANK, run, episode };
}

const current = (s: AppState): TeachState | null => teachOf(s.teach, s.runs.a.id, s.selected);

export const createTeachSlice: StateCreator<AppState, [], [], TeachSlice> = (set, get) => ({
  teach: null,
  startTeaching: () => set({ teach: current({ ...get(), teach: BLANK }) }),
  stopTeaching: () => set({ teach: null }),
  markTeach(key, met) {
    const t = current(get());
    if (t === null || t.revealed) return;
    const marks: Record<string, boolean> = Object.fromEntries(Object.entries(t.marks).filter(([k]) => k !== key));
    set({ teach: { ...t, marks: met === null ? marks : Object.fromEntries([...Object.entries(marks), [key, met]]) } });
  },
  revealTeach() {
    const t = current(get());
    if (t !== null) set({ teach: { ...t, revealed: true } });
  },
  retryTeach() {
    const t = current(get());
    if (t !== null) set({ teach: { ...t, marks: {}, revealed: false } });
  },
});
