import type { StateCreator } from 'zustand/vanilla';
import type { AppState } from './app-store';

export interface Notice {
  readonly id: number;
  readonly tone: 'error' | 'info';
  readonly text: string;
}

/** Messages over the app (the last four), dismissed one by one. */
export interface NoticesSlice {
  notices: readonly Notice[];
  notify(tone: Notice['tone'], text: string): void;
  dismissNotice(id: number): void;
}

let noticeId = 0;

export const createNoticesSlice: StateCreator<AppState, [], [], NoticesSlice> = (set) => ({
  notices: [],
  notify: (tone, text) => set((s) => ({ notices: [...s.notices.slice(-3), { id: ++noticeId, tone, text }] })),
  dismissNotice: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
});
