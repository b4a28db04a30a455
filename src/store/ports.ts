import type { Domain } from '../core/data/db';
import type { StepEdit } from '../core/session';

export type RunSourceInput =
  | { readonly kind: 'sample'; readonly name: string }
  | { readonly kind: 'file'; readonly file: File }
  | { readonly kind: 'stored'; readonly name: string }
  | { readonly kind: 'url'; readonly url: string };

export interface FolderFileInput {
  readonly path: string;
  readonly file: File;
}

export interface DataOriginInfo {
  readonly kind: 'sample' | 'folder' | 'dev' | 'url' | 'cache';
  readonly label: string;
}

export interface DataRequest {
  readonly domain: Domain;
  readonly suggestedBase: string;
  readonly files: readonly string[];
  readonly reason: string;
}

export interface DataProgress {
  readonly label: string;
  readonly done: number;
  readonly total: number;
  readonly bytes: number;
}

/** What the store asks of the evaluator (a Web Worker in the app, a fake in tests). Answers come back as store actions. */
export interface EvaluatorPort {
  openRun(run: number, source: RunSourceInput): void;
  useFolder(name: string, files: readonly FolderFileInput[]): void;
  useDataUrl(base: string): void;
  prioritize(run: number, indices: readonly number[]): void;
  search(run: number, id: number, query: string): void;
  view(run: number, id: number, index: number): void;
  episodeJson(run: number, index: number): void;
  whatIf(run: number, id: number, index: number, edits: readonly StepEdit[]): void;
}
