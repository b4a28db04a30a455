import type { EpisodeNotes, StepEdit } from '../core/contract';
import type { ToWorker } from '../protocol/messages';
import type { ShareContext } from '../protocol/share-context';
import type { EpisodeAddress, RunSlot } from '../protocol/wire-types';
import type { BenchmarkData } from './data-locator';

/**
 * One run the page opened, as the run controller (src/worker/run-controller.ts) holds it: every request that names
 * a run goes to its handle, whatever the benchmark. A τ-bench run (src/worker/tau-bench-run.ts) and a τ² run
 * (src/worker/tau2/run.ts) are the two kinds; a third benchmark is a third class of this shape.
 */
export interface RunHandle {
  readonly slot: RunSlot;
  readonly run: number;
  /** Closed or replaced: every loop of the run stops, nothing more is posted about it. */
  close(): void;
  /**
   * Stops judging while another file is opened into the slot; the function returned goes on from where it stopped if that
   * file cannot be opened (and does nothing if the run was stopped by the user before).
   */
  hold(): () => void;
  /** Stop judging (what is judged stays; views are still answered) / go on after a stop. */
  cancel(): void;
  resume(): void;
  /** Rows on screen: judged and keyed before the rest. */
  prioritize(indices: readonly number[]): void;
  /** The data of the run's benchmark (whose folder, picked for it, the run reads). */
  readonly data: BenchmarkData;
  /** Data sources changed: a URL base was agreed to (`onlyIfMissing`), or a folder was picked (named). */
  retryData(onlyIfMissing: boolean): void;
  /** A folder was picked for this run's benchmark: `found`, it holds its data (the run looks again), else the run says it does not. */
  folderPicked(name: string, found: boolean): void;
  search(id: number, query: string): void;
  /** The episode's view (judged now if it was not: its row goes out too). */
  view(a: EpisodeAddress): void;
  /** The episode's audio, when its run folder has one (a voice simulation's). */
  audio(a: EpisodeAddress): void;
  /** The dialogue as recorded, from the file alone. */
  transcript(a: EpisodeAddress): void;
  whatIf(a: EpisodeAddress, id: number, edits: readonly StepEdit[]): void;
  /** A DB after a message (answered from the run's kept replay). */
  state(m: ToWorker<'state-at-step'>): void;
  shareLink(a: EpisodeAddress, context: ShareContext): void;
  /** `edits`: what-if edits by episode index; the report shows each edited episode's edits and what they change. */
  report(id: number, title: string, notes: readonly EpisodeNotes[], edits?: ReadonlyMap<number, readonly StepEdit[]>): Promise<void>;
}
