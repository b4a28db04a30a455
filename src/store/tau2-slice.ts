import type { StateCreator } from 'zustand/vanilla';
import type { Tau2SimView } from '../core/contract';
import type { AppState } from './app-store';
import type { EvaluatorPort } from './ports';
import type { FromWorker } from '../protocol/messages';
import type { StoreAccess } from './receive';

/** The τ² simulation on screen: asked for by run and index, answered by the worker (`tau2-view`). */
export interface Tau2Sim {
  readonly run: number;
  readonly episode: number;
  readonly view: Tau2SimView | null;
  readonly error: string | null;
}

export interface Tau2Slice {
  tau2Sim: Tau2Sim | null;
  /** Asks for the open τ² run's simulation `episode` (again, e.g. once its data is there). */
  askTau2Sim(episode: number): void;
}

export const createTau2Slice =
  (port: EvaluatorPort): StateCreator<AppState, [], [], Tau2Slice> =>
  (set, get) => ({
    tau2Sim: null,
    askTau2Sim(episode) {
      const run = get().runs.a.id;
      if (run === null) return;
      set({ tau2Sim: { run, episode, view: null, error: null } });
      port.send({ type: 'tau2-view', run, episode });
    },
  });

/** A simulation's view for the simulation screen, if it is the one asked for last. */
export function tau2SimArrived(m: FromWorker<'tau2-view'>, { get, set }: StoreAccess): void {
  const want = get().tau2Sim;
  // Only the simulation asked for last is shown.
  if (want === null || want.run !== m.run || want.episode !== m.episode) return;
  set({ tau2Sim: { run: m.run, episode: m.episode, view: m.view, error: m.error } });
}
