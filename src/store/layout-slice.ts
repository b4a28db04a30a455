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

/** On a phone the episode screen shows one thing at a time: the dialogue, the verdict, or a panel of the side column. */
export type PhoneView = 'dialogue' | 'verdict' | 'panel';

/** Which panel of the episode screen's side column is shown (`id` null: the one the verdict's reasons suggest), and what a phone shows. */
export interface PanelChoice {
  readonly id: string | null;
  readonly phone: PhoneView;
}

export const FIRST_PANEL: PanelChoice = { id: null, phone: 'dialogue' };

export interface LayoutSlice {
  layout: Layout;
  /** The key list (`?`). */
  helpOpen: boolean;
  /** The episode screen's side panel (kept from one episode to the next) and what a phone shows (the dialogue when an episode opens). */
  panel: PanelChoice;
  /** Shows a side panel (and the side column, were it hidden). */
  showPanel(id: string): void;
  /** What a phone shows: the dialogue, the verdict, or the side panel. */
  showPhone(view: PhoneView): void;
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
  panel: FIRST_PANEL,
  showPanel: (id) => set((s) => ({ panel: { id, phone: 'panel' }, layout: s.layout.sideHidden ? { ...s.layout, sideHidden: false } : s.layout })),
  showPhone: (phone) => set((s) => ({ panel: { ...s.panel, phone } })),
  setLayout: (patch) => set((s) => ({ layout: { ...s.layout, ...patch } })),
  toggleLayout: (flag) => set((s) => ({ layout: { ...s.layout, [flag]: !s.layout[flag] } })),
  setHelpOpen: (helpOpen) => set({ helpOpen }),
});
