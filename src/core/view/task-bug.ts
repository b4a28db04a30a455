import type { EpisodeView } from './episode-view';
import { formatReward } from './format';
import type { EpisodeNotes } from './notes';

export interface TaskBugInput {
  readonly view: EpisodeView;
  readonly taskId: number | null;
  readonly domain: string;
  readonly file: string;
  readonly notes: EpisodeNotes | null;
}

/** A fenced block whose fence is longer than any backtick run inside, so no text can close it early. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

/**
 * Issue text for τ-bench's maintainers about an episode labelled as a task or annotation bug:
 * plain Markdown text (every quoted text fenced; never HTML), to paste into an issue.
 */
export function taskBugText(t: TaskBugInput): string {
  const v = t.view;
  const agent = v.steps
    .map((s, i) => `${i + 1}. ${s.action} ${s.isRespond ? JSON.stringify(s.respondText ?? '') : s.kwargs.replace(/\s*\n\s*/g, ' ')}`)
    .join('\n');
  const reference = v.reference.map((r, i) => `${i + 1}. ${r.action} ${r.kwargs.replace(/\s*\n\s*/g, ' ')}`).join('\n');
  const diff = v.diff.length
    ? v.diff
        .map(
          (d) =>
            `${d.table}/${d.key}\n${d.fields.map((f) => `  ${f.path}: agent ${f.agent ?? '(absent)'} / reference ${f.reference ?? '(absent)'}`).join('\n')}`,
        )
        .join('\n')
    : '(none: the agent’s DB equals the reference DB)';
  const n = t.notes;
  const stepNotes = n
    ? Object.entries(n.steps)
        .filter(([, s]) => s.trim() !== '')
        .map(([k, s]) => `step ${Number(k) + 1}: ${s}`)
    : [];
  const notes = [n?.note.trim() ? n.note : '', ...stepNotes].filter(Boolean).join('\n');
  return [
    `## τ-bench ${t.domain} task ${t.taskId ?? '?'}: possible task or annotation bug`,
    '',
    `- task id: ${t.taskId ?? 'unknown'}`,
    `- domain: ${t.domain}`,
    `- data version: ${v.verdict.dataCommit}`,
    `- reward: ${formatReward(v.verdict.reward)} (recorded ${formatReward(v.verdict.recordedReward)}), rule ${v.verdict.rule}`,
    `- seen in: ${fenced(t.file).replace(/\n/g, ' ')} episode ${v.index}`,
    '',
    '### Instruction',
    fenced(v.instruction),
    '',
    '### Reference actions',
    fenced(reference || '(none)'),
    '',
    '### What the agent did',
    fenced(agent || '(no actions)'),
    '',
    '### DB diff (agent vs reference)',
    fenced(diff),
    '',
    `### Verdict`,
    fenced(v.verdict.sentence),
    '',
    '### Notes',
    fenced(notes || '(none)'),
    '',
  ].join('\n');
}
