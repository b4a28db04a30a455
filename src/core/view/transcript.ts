import { detectStrategy } from '../model/episode/actions';
import type { EpisodeRecord } from '../model/episode/types';
import { messageView, type MessageView } from './episode-view';

/**
 * The dialogue of one episode as it is in the file, before (and without) τ-bench's data: no
 * replay, so no executed steps and no verdict. The episode screen shows it while the data is
 * missing or the episode is being evaluated.
 */
export interface TranscriptView {
  readonly index: number;
  readonly strategy: string;
  readonly instruction: string;
  readonly messages: readonly MessageView[];
  /** Why the episode cannot be evaluated (a crashed run, a missing task…), if the file says so. */
  readonly problem: string | null;
}

export function transcriptView(r: EpisodeRecord): TranscriptView {
  return {
    index: r.index,
    strategy: detectStrategy(r.traj),
    instruction: r.task?.instruction ?? '',
    messages: r.traj.map(messageView),
    problem: r.problem,
  };
}
