/** The view of an episode with edited agent steps, judged again (see `InspectSession.whatIf`). */
import type { Domain } from '../model/data/db';
import type { DataVersion, RewardRule } from '../model/data/versions';
import type { EvalCache } from '../judge/cache';
import { evaluateEpisode, finalReward, type EpisodeEvaluation } from '../judge/evaluate';
import type { EpisodeRecord } from '../model/episode/types';
import { episodeView } from '../view/episode-view';
import type { ViewResult } from './session-types';
import { editTrajectory, WhatIfError, type StepEdit } from './what-if';

/** `record` (evaluated as `before`) with `edits` applied, judged again under the same data version and rule. */
export function whatIfView(
  record: EpisodeRecord,
  before: EpisodeEvaluation,
  domain: Domain,
  version: DataVersion,
  cache: EvalCache,
  rule: RewardRule,
  edits: readonly StepEdit[],
): ViewResult {
  const index = record.index;
  let edited;
  try {
    edited = editTrajectory(record.traj, before.strategy, edits);
  } catch (e) {
    if (e instanceof WhatIfError) return { error: e.message, index };
    throw e;
  }
  const o = evaluateEpisode({ ...record, traj: edited.traj }, domain, version, cache);
  if (!o.ok) return { error: o.error, index };
  const view = episodeView(o.value, version, rule);
  const filled = new Map<number, string>();
  const steps = view.steps.map((s) => {
    if (s.observationIndex === null || !edited.insertedObservations.includes(s.observationIndex)) return s;
    filled.set(s.observationIndex, s.observation);
    return { ...s, recordedObservation: s.observation, observationDiffers: false };
  });
  const messages = view.messages.map((m, i) => ({
    ...m,
    ...(filled.has(i) && { content: `${before.strategy === 'tool-calling' ? '' : 'API output: '}${filled.get(i)!}` }),
    originalIndex: edited.original[i] ?? null,
    whatIf: edited.marks[i] ?? null,
  }));
  return {
    ...view,
    steps,
    messages,
    verdict: { ...view.verdict, recordedReward: null },
    whatIf: {
      removed: edited.removed,
      recordedEpisodeReward: finalReward(before, rule),
      note: "User turns and tool results after the first change are the recorded ones: τ-bench's user simulator is not re-run, so later replies may no longer fit the edited episode.",
    },
  };
}
