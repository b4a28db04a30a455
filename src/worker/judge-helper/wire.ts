/**
 * The wire between the evaluator worker and its judge helper (a worker it starts for a big run, so
 * episodes are judged on two threads): declared once here, used by both ends.
 */
import type { DataSnapshot, Domain, EpisodeVerdicts, VersionFacts } from '../../core/contract';

export type ToHelper =
  /** The data version episodes are judged on from now on; `gen` tags the batches judged on it. */
  | { readonly type: 'data'; readonly gen: number; readonly domain: Domain; readonly version: VersionFacts; readonly snapshot: DataSnapshot }
  /**
   * Episodes to judge: their indices and their bytes as in the file (UTF-8 JSON) in `bytes` (transferred,
   * not copied): episode k is `bytes[spans[2k], spans[2k + 1])`. Episodes next to each other in the file
   * come as one piece of it, with what lies between them (a comma, spaces).
   */
  | {
      readonly type: 'judge';
      readonly gen: number;
      readonly batch: number;
      readonly indices: readonly number[];
      readonly bytes: Uint8Array;
      readonly spans: readonly number[];
    };

export type FromHelper =
  | {
      readonly type: 'judged';
      readonly gen: number;
      readonly batch: number;
      readonly verdicts: readonly { readonly index: number; readonly verdicts: EpisodeVerdicts }[];
    }
  /** A batch (or the data) the helper could not handle: its episodes are judged by the evaluator worker itself. */
  | { readonly type: 'failed'; readonly gen: number; readonly batch: number; readonly message: string };
