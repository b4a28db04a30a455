import type { EpisodeNotes, FolderFile, RunSource, StepEdit } from '../core/contract';

/** What the store asks of the evaluator (a Web Worker in the app, a fake in tests). Answers come back as store actions. */
export interface EvaluatorPort {
  openRun(run: number, source: RunSource): void;
  /** A second run beside the open one, to compare them. */
  openCompare(run: number, source: RunSource): void;
  closeCompare(): void;
  /** The offline report of a run with the notes of its episodes. */
  report(run: number, id: number, title: string, notes: readonly EpisodeNotes[]): void;
  /** Stop evaluating a run (rows evaluated so far stay). */
  cancel(run: number): void;
  /** Go on evaluating a run stopped by `cancel`. */
  resume(run: number): void;
  useFolder(name: string, files: readonly FolderFile[]): void;
  useDataUrl(base: string): void;
  prioritize(run: number, indices: readonly number[]): void;
  search(run: number, id: number, query: string): void;
  view(run: number, id: number, index: number): void;
  transcript(run: number, index: number): void;
  episodeJson(run: number, index: number): void;
  whatIf(run: number, id: number, index: number, edits: readonly StepEdit[]): void;
}
