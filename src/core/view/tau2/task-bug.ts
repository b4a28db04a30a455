import { formatReward } from '../format';
import type { EpisodeNotes } from '../notes';
import { inlineCode, issueText, oneLine, seenIn } from '../task-bug';
import type { Tau2SimView } from './sim-view';

export interface Tau2TaskBugInput {
  readonly view: Tau2SimView;
  /** τ²'s domain name (`airline`, `telecom`, …). */
  readonly domain: string;
  readonly file: string;
  readonly notes: EpisodeNotes | null;
}

/** Issue text for τ²-bench's maintainers about a simulation labelled as a task or annotation bug (see `issueText`): it names τ²'s task id and domain. */
export function tau2TaskBugText(t: Tau2TaskBugInput): string {
  const v = t.view;
  const calls = v.messages.flatMap((m) => m.calls);
  const agent = calls.map((c, i) => `${i + 1}. ${c.requestor === 'user' ? '(user) ' : ''}${c.name} ${oneLine(c.arguments)}`).join('\n');
  const reference = (v.actions ?? [])
    .map((a, i) => `${i + 1}. ${a.requestor === 'user' ? '(user) ' : ''}${a.name} ${oneLine(a.arguments)}${a.match ? '' : '  — not matched'}`)
    .join('\n');
  const diff =
    v.db === null
      ? '(no DB check)'
      : v.db.diff.length
        ? v.db.diff
            .map(
              (d) =>
                `${d.db} ${d.table}${d.key === null ? '' : `/${d.key}`}\n${d.fields.map((f) => `  ${f.path}: agent ${f.predicted ?? '(absent)'} / reference ${f.gold ?? '(absent)'}`).join('\n')}`,
            )
            .join('\n')
        : v.db.match === false
          ? `(the hashes differ${v.db.diffError ? `; no diff: ${v.db.diffError}` : ''})`
          : '(none: the agent’s DB equals the reference DB)';
  const checks = [
    ...(v.envAssertions ?? []).map(
      (a) => `env assertion ${a.func} ${oneLine(a.arguments)}: expected ${a.expected}, got ${oneLine(a.actual)}${a.met ? '' : ' — not met'}`,
    ),
    ...(v.communicate ?? []).map((c) => `communicate ${JSON.stringify(c.info)}: ${c.met ? 'said' : 'not said'}`),
    ...(v.nl ?? []).map((n) => `NL assertion (recorded) ${JSON.stringify(n.assertion)}: ${n.met === null ? 'not judged' : n.met ? 'met' : 'not met'}`),
  ].join('\n');
  return issueText({
    benchmark: 'τ²-bench',
    domain: t.domain,
    taskId: inlineCode(v.taskId),
    facts: [
      `- simulation: ${inlineCode(v.simulationId)} (trial ${inlineCode(v.trial)})`,
      `- reward: ${formatReward(v.reward)} (recorded ${formatReward(v.recordedReward)}), reward basis ${(v.basis ?? []).join(', ') || '(none)'}, termination ${inlineCode(v.termination)}`,
      seenIn(t.file, `simulation ${v.index}`),
    ],
    sections: [
      ['User instructions', v.instructions ?? '(none)'],
      ['Reference actions', reference || '(none)'],
      ['What the agent (and user) called', agent || '(no calls)'],
      ['DB diff (agent vs reference)', diff],
      ['Checks', checks || '(none)'],
      ['How τ² judged it', v.walkthrough.join('\n')],
    ],
    notes: t.notes,
  });
}
