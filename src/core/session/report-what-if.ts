/**
 * τ-bench's report of an episode made with what-if edits (the app's report of an edited view): the edits in words, in
 * steps as the app names them, the reward before → after, and what changed between the recorded episode and the edited
 * one — the DB check, each DB field that differs from the reference DB on either side, each required output, whether the
 * episode ended — in the section both reports share (`whatIfSectionHtml`).
 */
import type { EpisodeView } from '../view/episode-view';
import { whatIfSectionHtml, type WhatIfChange } from '../view/report-what-if';
import type { ViewResult } from './session-types';
import type { StepEdit } from './what-if';

/** Where a recorded message sits, in steps first: "step 20 (message #40)"; a message of no step by its number alone. */
export function stepOfMessage(recorded: Pick<EpisodeView, 'messages'>, messageIndex: number): string {
  const m = recorded.messages.find((x) => x.originalIndex === messageIndex);
  const step = m?.stepIndex ?? m?.observationOf ?? null;
  return step === null ? `message #${messageIndex}` : `step ${step + 1} (message #${messageIndex})`;
}

/** One what-if edit in full words (the report has no screen beside it): where, and what the edited step does instead. */
export function editWords(edit: StepEdit, recorded: Pick<EpisodeView, 'messages' | 'steps'>): string {
  const at = stepOfMessage(recorded, edit.messageIndex);
  const step = recorded.steps.find((s) => s.messageIndex === edit.messageIndex);
  if (edit.insert) return `inserted before ${at}: ${edit.name ?? '?'}(${edit.kwargsJson ?? '{}'})`;
  if (edit.remove) return `removed ${at}${step ? `: ${step.action}` : ''}`;
  if (edit.content !== undefined) return `${at}’s text replaced by “${edit.content}”`;
  return `${at} changed to ${edit.name ?? step?.action ?? '?'}(${edit.kwargsJson ?? step?.kwargs ?? '{}'})`;
}

const absent = (v: string | null): string => v ?? '(absent)';

/** Each field that differs from the reference DB, by `table/key · path`: the agent's value against the reference's. */
function dbFields(v: EpisodeView): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of v.diff)
    for (const f of d.fields)
      out.set(`${d.table}/${d.key} · ${f.path}`, `${absent(f.agent)} (reference: ${absent(f.reference)})${f.intVsFloat ? ', int vs float' : ''}`);
  return out;
}

const outputState = (o: EpisodeView['outputs'] extends readonly (infer O)[] | null ? O : never): string =>
  o.found ? `found${o.stepIndex === null ? '' : ` (step ${o.stepIndex + 1})`}` : 'missing';

/** What the edits changed in how τ-bench judged the episode, each with its state before and after; nothing that stayed. */
export function whatIfChanges(before: EpisodeView, after: EpisodeView): WhatIfChange[] {
  const rows: WhatIfChange[] = [];
  const met = (x: boolean): string => (x ? 'met' : 'not met');
  if (before.verdict.rActions !== after.verdict.rActions)
    rows.push({ what: 'DB check: the agent’s DB hash equals the reference DB’s', before: met(before.verdict.rActions), after: met(after.verdict.rActions) });
  const was = dbFields(before);
  const now = dbFields(after);
  const same = 'as the reference';
  for (const key of new Set([...was.keys(), ...now.keys()])) {
    const b = was.get(key) ?? same;
    const a = now.get(key) ?? same;
    if (a !== b) rows.push({ what: `DB ${key}`, before: b, after: a });
  }
  (before.outputs ?? []).forEach((o, i) => {
    const n = after.outputs?.[i];
    if (n && outputState(o) !== outputState(n)) rows.push({ what: `required output “${o.output}”`, before: outputState(o), after: outputState(n) });
  });
  if (before.verdict.done !== after.verdict.done)
    rows.push({ what: 'the episode ended (done)', before: before.verdict.done ? 'yes' : 'no', after: after.verdict.done ? 'yes' : 'no' });
  return rows;
}

const NOTE =
  'Not the recorded episode: the episode as edited, judged again as τ-bench judges it. The verdict and the dialogue below are the recorded episode’s.';

/** The report's what-if section of an episode: `recorded` its view (or why there is none), `edited` the what-if's answer. */
export function tauBenchWhatIfHtml(edits: readonly StepEdit[], recorded: ViewResult, edited: ViewResult): string {
  if ('error' in recorded)
    return whatIfSectionHtml(
      NOTE,
      edits.map((x) => `an edit of message #${x.messageIndex}`),
      { error: recorded.error },
    );
  const words = edits.map((x) => editWords(x, recorded));
  if ('error' in edited) return whatIfSectionHtml(NOTE, words, { error: edited.error });
  return whatIfSectionHtml(NOTE, words, {
    rewardBefore: edited.whatIf?.recordedEpisodeReward ?? recorded.verdict.reward,
    rewardAfter: edited.verdict.reward,
    columns: ['what τ-bench checks', 'before', 'after'],
    changes: whatIfChanges(recorded, edited),
    unchanged: 'Nothing τ-bench checks changes: the same DB fields differ from the reference, the same outputs are found.',
    removed: edited.whatIf?.removed.map((r) => r.text) ?? [],
    note: edited.whatIf?.note ?? '',
  });
}
