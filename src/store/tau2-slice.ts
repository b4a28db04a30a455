import type { StateCreator } from 'zustand/vanilla';
import type { StepEdit, Tau2SimView, Tau2WhatIfView } from '../core/contract';
import type { AppState } from './app-store';
import type { EvaluatorPort } from './ports';
import type { FromWorker } from '../protocol/messages';
import type { StoreAccess, StoreHandlers } from './receive';

/** The τ² simulation on screen: asked for by run and index, answered by the worker (`tau2-view`). */
export interface Tau2Sim {
  readonly run: number;
  readonly episode: number;
  readonly view: Tau2SimView | null;
  readonly error: string | null;
}

/** A what-if on the τ² simulation on screen: its edits (on the recorded messages) and the edited simulation judged again (`tau2-what-if`). */
export interface Tau2WhatIf {
  readonly run: number;
  readonly episode: number;
  /** The page's sequence number of the request whose answer is awaited (older answers are dropped). */
  readonly id: number;
  readonly edits: readonly StepEdit[];
  readonly view: Tau2WhatIfView | null;
  readonly error: string | null;
}

export interface Tau2Slice {
  tau2Sim: Tau2Sim | null;
  /** Asks for the open τ² run's simulation `episode` (again, e.g. once its data is there). Another simulation drops the what-if. */
  askTau2Sim(episode: number): void;
  tau2WhatIf: Tau2WhatIf | null;
  tau2WhatIfSeq: number;
  /** Judges the simulation on screen again with these edits (none: back to the recorded one). */
  runTau2WhatIf(edits: readonly StepEdit[]): void;
  clearTau2WhatIf(): void;
}

export const createTau2Slice =
  (port: EvaluatorPort): StateCreator<AppState, [], [], Tau2Slice> =>
  (set, get) => ({
    tau2Sim: null,
    tau2WhatIf: null,
    tau2WhatIfSeq: 0,
    askTau2Sim(episode) {
      const run = get().runs.a.id;
      if (run === null) return;
      const w = get().tau2WhatIf;
      const keep = w !== null && w.run === run && w.episode === episode;
      set({ tau2Sim: { run, episode, view: null, error: null }, ...(!keep && { tau2WhatIf: null }) });
      port.send({ type: 'tau2-view', run, episode });
      // The simulation's edits are judged again with it (its data may have just arrived).
      if (keep && w.edits.length > 0) get().runTau2WhatIf(w.edits);
    },
    runTau2WhatIf(edits) {
      const sim = get().tau2Sim;
      if (sim === null) return;
      if (edits.length === 0) return get().clearTau2WhatIf();
      const id = get().tau2WhatIfSeq + 1;
      set({ tau2WhatIfSeq: id, tau2WhatIf: { run: sim.run, episode: sim.episode, id, edits, view: null, error: null } });
      port.send({ type: 'tau2-what-if', run: sim.run, episode: sim.episode, id, edits });
    },
    clearTau2WhatIf() {
      set({ tau2WhatIf: null });
    },
  });

/** A simulation's view for the simulation screen, if it is the one asked for last. */
export function tau2SimArrived(m: FromWorker<'tau2-view'>, { get, set }: StoreAccess): void {
  const want = get().tau2Sim;
  // Only the simulation asked for last is shown.
  if (want === null || want.run !== m.run || want.episode !== m.episode) return;
  set({ tau2Sim: { run: m.run, episode: m.episode, view: m.view, error: m.error } });
}

export const tau2Handlers: StoreHandlers<'tau2-what-if'> = {
  'tau2-what-if'(m, { get, set }) {
    const w = get().tau2WhatIf;
    // Only the latest what-if of the simulation on screen is shown.
    if (w === null || w.run !== m.run || w.episode !== m.episode || w.id !== m.id) return;
    set({ tau2WhatIf: { ...w, view: m.view, error: m.error } });
  },
};
