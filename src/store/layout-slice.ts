import type { StateCreator } from 'zustand/vanilla';
import type { AppState } from './app-store';

export type Theme = 'system' | 'light' | 'dark';

/** How the workspace is laid out; the app remembers it in this browser (see `src/app/layout-persist.ts`). */
export interface Layout {
  /** With an episode open on a wide screen: hide the episode list entirely (else it is a narrow column). */
  readonly listHidden: boolean;
  /** The verdict's details (hashes, outputs, ending, rule) under its one-line summary. */
  readonly verdictOpen: boolean;
  /** The side column (task, DB, diff, outputs, findings) beside the dialogue. */
  readonly sideHidden: boolean;
  /** The pass^k chart and the task × trial grid above the list. */
  readonly chartsOpen: boolean;
  /** The task instruction (the user's goal) in the side column. */
  readonly instructionOpen: boolean;
  readonly theme: Theme;
}

export const DEFAULT_LAYOUT: Layout = { listHidden: false, verdictOpen: false, sideHidden: false, chartsOpen: true, instructionOpen: true, theme: 'system' };

export type LayoutFlag = Exclude<keyof Layout, 'theme'>;

export interface LayoutSlice {
  layout: Layout;
  /** The key list (`?`). */
  helpOpen: boolean;
  setLayout(patch: Partial<Layout>): void;
  toggleLayout(flag: LayoutFlag): void;
  setHelpOpen(open: boolean): void;
}

/** Keeps only known keys of the right type (a stored layout may come from an older version). */
export function sanitizeLayout(x: unknown): Partial<Layout> {
  if (typeof x !== 'object' || x === null) return {};
  const out = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(x)) {
    if (!Object.hasOwn(DEFAULT_LAYOUT, k)) continue;
    if (k === 'theme') {
      if (v === 'system' || v === 'light' || v === 'dark') out[k] = v;
    } else if (typeof v === 'boolean') out[k] = v;
  }
  return out as Partial<Layout>;
}

export const createLayoutSlice: StateCreator<AppState, [], [], LayoutSlice> = (set) => ({
  layout: DEFAULT_LAYOUT,
  helpOpen: false,
  setLayout: (patch) => set((s) => ({ layout: { ...s.layout, ...patch } })),
  toggleLayout: (flag) => set((s) => ({ layout: { ...s.layout, [flag]: !s.layout[flag] } })),
  setHelpOpen: (helpOpen) => set({ helpOpen }),
});
