/** What every bench module returns: named numbers (null when not measurable here), merged by run-all into one JSON object. */
export type BenchResult = Record<string, number | null>;

/** Where a bench prints its human-readable lines (stdout, or stderr under `--json`). */
export type Log = (line: string) => void;

/** Options of `npm run bench` every bench gets (most ignore them). */
export interface BenchOptions {
  /** How many times a bench that times a noisy whole measures it (`--repeat=N`; 1 by default). */
  readonly repeat: number;
}
