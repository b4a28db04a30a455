import type { ReactNode } from 'react';
import type { EpisodeView } from '../../core/contract';
import type { PhoneView } from '../../ui/panel-tabs';

export type { PhoneView, TabItem } from '../../ui/panel-tabs';

/** One click from an analysis line to what it is about. */
export interface EpisodeNav {
  /** Select a step and scroll the dialogue to its message. */
  step(n: number): void;
  /** Scroll the dialogue to a message (a tool result, text beside a tool call) and select its step. */
  message(index: number): void;
  /** Show a reference action in the DB diff tab. */
  reference(index: number): void;
  /** Show a differing record (`table/key`) in the DB diff tab. */
  record(name: string): void;
}

/**
 * A panel of the side column beyond the built-in ones (DB at step, DB diff, outputs): findings,
 * walkthrough, alignment, what-if, notes. The app passes them in (features do not import each
 * other); see `SIDE_PANELS` in `src/app/episode-body.tsx`, the one place they are mounted.
 */
export interface SidePanel {
  readonly id: string;
  readonly label: string | ((view: EpisodeView) => string);
  /** A shorter label for the phone's tab bar (default: the label). */
  readonly short?: string | ((view: EpisodeView) => string);
  readonly render: (ctx: { readonly view: EpisodeView; readonly step: number; readonly onStep: (n: number) => void; readonly nav: EpisodeNav }) => ReactNode;
}

/** The workspace's remembered look, owned by the app's store; the screen works without it too. */
export interface ScreenLayout {
  readonly verdictOpen: boolean;
  readonly sideHidden: boolean;
  readonly instructionOpen: boolean;
}

/** The side panel shown (null: the one the verdict's reasons suggest) and what a phone shows; owned by the app's store when given. */
export interface PanelState {
  readonly id: string | null;
  readonly phone: PhoneView;
  readonly onPanel: (id: string) => void;
  readonly onPhone: (view: PhoneView) => void;
}
