import type { ReactNode } from 'react';
import type { Tau2SimView } from '../../core/contract';

/** A voice simulation's tick cursor, the screen's (its keys work whichever panel is open): the tick, and how to move it (the step follows). */
export interface VoiceCursor {
  readonly tick: number;
  readonly goTo: (tick: number) => void;
}

/** What a panel of the τ² simulation screen is given. */
export interface Tau2PanelContext {
  readonly view: Tau2SimView;
  /** `view` is a what-if's edited simulation, not the recorded one. */
  readonly edited: boolean;
  /** The selected message (the step): panels that show state follow it. */
  readonly message: number;
  /** Selects a message and brings it into view in the dialogue. */
  readonly onMessage: (index: number) => void;
  /** Brings a call into view in the dialogue (its message selected). */
  readonly onCall: (index: number) => void;
  /** A full-duplex (voice) simulation's tick cursor (null for a turn-based one). */
  readonly voiceCursor: VoiceCursor | null;
}

/**
 * A panel of the τ² simulation screen's side column, one tab each. The app lists them in one array
 * (`TAU2_PANELS`, src/app/tau2-panels.tsx): its order is the order of the tabs and of their digit keys.
 */
export interface Tau2Panel {
  readonly id: string;
  /** What the key list (`?`) calls it. */
  readonly name: string;
  readonly label: string | ((view: Tau2SimView) => string);
  /** A shorter label for the phone's tab bar (default: the label). */
  readonly short?: string | ((view: Tau2SimView) => string);
  readonly render: (ctx: Tau2PanelContext) => ReactNode;
  /** Shown only for the simulations this holds for (default: every one); its digit key stays its place in the list. */
  readonly shown?: (view: Tau2SimView) => boolean;
  /** A simulation this holds for opens on this panel (before the default: the DB diff when the DB check failed, else how τ² judged). */
  readonly opensOn?: (view: Tau2SimView) => boolean;
}
