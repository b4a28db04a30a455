import type { StateCreator } from 'zustand/vanilla';
import type { StepEdit, Tau2DbSide, Tau2SimView, Tau2StateView, Tau2WhatIfView } from '../core/contract';
import type { AppState } from './app-store';
import type { StepMove } from './episode-slice';
import type { EpisodeAddress } from '../protocol/wire-types';
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

/** A record asked for in the state panel: a table and a key (or the start of one). */
export interface Tau2RecordAsk {
  readonly table: string;
  readonly key: string | null;
}

/** The question the state panel asked last (a DB after a message), and its answer once there. */
export interface Tau2StateAsk extends EpisodeAddress {
  readonly message: number;
  readonly db: Tau2DbSide;
  readonly record: Tau2RecordAsk | null;
  readonly state: Tau2StateView | null;
  readonly error: string | null;
}

export interface Tau2Slice {
  tau2Sim: Tau2Sim | null;
  /** The selected message of the open simulation (its step); null: the first one. */
  tau2Step: number | null;
  /** Which DB the state panel shows: the agent's, or (telecom) the user's device. */
  tau2Db: Tau2DbSide;
  tau2Record: Tau2RecordAsk | null;
  tau2State: Tau2StateAsk | null;
  /** Asks for the open τ² run's simulation `episode` (again, e.g. once its data is there). Another simulation drops the what-if. */
  askTau2Sim(episode: number): void;
  tau2WhatIf: Tau2WhatIf | null;
  tau2WhatIfSeq: number;
  /** Judges the simulation on screen again with these edits (none: back to the recorded one). */
  runTau2WhatIf(edits: readonly StepEdit[]): void;
  clearTau2WhatIf(): void;
  /** Selects a message of the open simulation (a step: any message but a tool's, which belongs to its call). */
  setTau2Step(message: number): void;
  moveTau2Step(move: StepMove): void;
  setTau2Db(db: Tau2DbSide): void;
  setTau2Record(record: Tau2RecordAsk | null): void;
  /** Asks the worker for the state panel's DB at the selected message (once per distinct question). */
  askTau2State(): void;
}

/** The messages of a τ² view that are steps (tool messages are shown with their calls). */
export const tau2Steps = (view: Tau2SimView): number[] => view.messages.filter((m) => m.role !== 'tool').map((m) => m.index);

/** The selected step's message: `step` if it is one, else the last step at or before it, else the first. */
export function tau2StepAt(view: Tau2SimView, step: number | null): number {
  const steps = tau2Steps(view);
  if (steps.length === 0) return 0;
  if (step === null) return steps[0]!;
  let at = steps[0]!;
  for (const s of steps) if (s <= step) at = s;
  return at;
}

export const createTau2Slice =
  (port: EvaluatorPort): StateCreator<AppState, [], [], Tau2Slice> =>
  (set, get) => ({
    tau2Sim: null,
    tau2Step: null,
    tau2Db: 'agent',
    tau2Record: null,
    tau2State: null,
    tau2WhatIf: null,
    tau2WhatIfSeq: 0,
    askTau2Sim(episode) {
      const run = get().runs.a.id;
      if (run === null) return;
      const same = get().tau2Sim?.run === run && get().tau2Sim?.episode === episode;
      const w = get().tau2WhatIf;
      const keep = w !== null && w.run === run && w.episode === episode;
      set({
        tau2Sim: { run, episode, view: null, error: null },
        // The message selected stays: `select` set it for this simulation (a link's place, or its first).
        ...(!same && { tau2Record: null }),
        ...(!keep && { tau2WhatIf: null }),
      });
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
    setTau2Step(message) {
      if (get().tau2Step !== message) set({ tau2Step: message });
    },
    moveTau2Step(move) {
      const view = get().tau2Sim?.view;
      if (!view) return;
      const steps = tau2Steps(view);
      if (steps.length === 0) return;
      const at = steps.indexOf(tau2StepAt(view, get().tau2Step));
      const to = move === 'first' ? 0 : move === 'last' ? steps.length - 1 : Math.max(0, Math.min(steps.length - 1, at + (move === 'next' ? 1 : -1)));
      set({ tau2Step: steps[to]! });
    },
    setTau2Db(db) {
      set({ tau2Db: db, tau2Record: null });
    },
    setTau2Record(record) {
      set({ tau2Record: record });
    },
    askTau2State() {
      const s = get();
      const sim = s.tau2Sim;
      if (!sim?.view) return;
      const message = tau2StepAt(sim.view, s.tau2Step);
      const db = s.tau2Db;
      const record = s.tau2Record;
      const last = s.tau2State;
      if (
        last &&
        last.run === sim.run &&
        last.episode === sim.episode &&
        last.message === message &&
        last.db === db &&
        last.record?.table === record?.table &&
        last.record?.key === record?.key
      )
        return;
      set({ tau2State: { run: sim.run, episode: sim.episode, message, db, record, state: last?.state ?? null, error: null } });
      port.send({ type: 'tau2-state', run: sim.run, episode: sim.episode, message, db, record });
    },
  });

/** A simulation's view for the simulation screen, if it is the one asked for last. */
export function tau2SimArrived(m: FromWorker<'tau2-view'>, { get, set }: StoreAccess): void {
  const want = get().tau2Sim;
  // Only the simulation asked for last is shown.
  if (want === null || want.run !== m.run || want.episode !== m.episode) return;
  set({ tau2Sim: { run: m.run, episode: m.episode, view: m.view, error: m.error } });
}

export const tau2Handlers: StoreHandlers<'tau2-state' | 'tau2-what-if'> = {
  'tau2-state'(m, { get, set }) {
    const want = get().tau2State;
    if (want === null || want.run !== m.run || want.episode !== m.episode) return;
    // Answers come in the order asked: an older one still stands in until the newest arrives.
    set({ tau2State: { ...want, state: m.state ?? want.state, error: m.error } });
  },
  'tau2-what-if'(m, { get, set }) {
    const w = get().tau2WhatIf;
    // Only the latest what-if of the simulation on screen is shown.
    if (w === null || w.run !== m.run || w.episode !== m.episode || w.id !== m.id) return;
    set({ tau2WhatIf: { ...w, view: m.view, error: m.error } });
  },
};
