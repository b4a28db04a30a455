import type { Tau2Run } from '../core/contract';

/**
 * A run of a benchmark whose results are one JSON object, read whole — a τ²-bench results file (`{info, tasks,
 * simulations}`) or run folder, judged by `Tau2Session` (src/worker/tau2/run.ts). `kind` names the benchmark whose
 * handle takes it (`run-controller.ts`'s `OBJECT_HANDLES`).
 */
export type ObjectRun = { readonly kind: 'tau2'; readonly tau2: Tau2Run };

/** A benchmark's reader of such runs: whether a file's first bytes look like one, and the run in a whole text (null: not one). */
export interface ObjectReader {
  looks(prefix: string): boolean;
  read(text: string): ObjectRun | null;
}
