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
export function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

/** Text from a file as inline code on one line (plain when it is a bare word): a task id cannot start a heading or a link. */
export function inlineCode(text: string): string {
  const t = oneLine(text);
  if (/^[A-Za-z0-9_.:-]+$/.test(t)) return t;
  const longest = Math.max(0, ...[...t.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${t} ${fence}`;
}

/** Text on one line (a call's arguments printed over several). */
export const oneLine = (s: string): string => s.replace(/\s*\n\s*/g, ' ');

/** What an issue about a task says, whichever benchmark it is for. */
export interface IssueParts {
  /** `τ-bench`, `τ²-bench`: the benchmark whose maintainers read it. */
  readonly benchmark: string;
  readonly domain: string;
  /** The task id as the benchmark writes it (τ²'s are text). */
  readonly taskId: string | null;
  /** Lines of the fact list after the task id and the domain. */
  readonly facts: readonly string[];
  /** Headed sections after the facts, each quoted text fenced. */
  readonly sections: readonly (readonly [heading: string, text: string])[];
  readonly notes: EpisodeNotes | null;
}

/** The notes on an episode or simulation as lines (its note, then each step's note). */
function notesText(n: EpisodeNotes | null): string {
  const stepNotes = n
    ? Object.entries(n.steps)
        .filter(([, s]) => s.trim() !== '')
        .map(([k, s]) => `step ${Number(k) + 1}: ${s}`)
    : [];
  return [n?.note.trim() ? n.note : '', ...stepNotes].filter(Boolean).join('\n');
}

/** The file an episode or simulation was seen in, on one line (the name fenced: it is untrusted text). */
export const seenIn = (file: string, what: string): string => `- seen in: ${fenced(file).replace(/\n/g, ' ')} ${what}`;

/**
 * Issue text for a benchmark's maintainers about a task labelled as a task or annotation bug: plain
 * Markdown (every quoted text fenced; never HTML), to paste into an issue. The benchmark is a parameter:
 * `taskBugText` fills it for a τ-bench episode, `tau2TaskBugText` for a τ² simulation.
 */
export function issueText(p: IssueParts): string {
  const id = p.taskId ?? '?';
  return [
    `## ${p.benchmark} ${p.domain} task ${id}: possible task or annotation bug`,
    '',
    `- task id: ${p.taskId ?? 'unknown'}`,
    `- domain: ${p.domain}`,
    ...p.facts,
    '',
    ...p.sections.flatMap(([heading, text]) => [`### ${heading}`, fenced(text), '']),
    '### Notes',
    fenced(notesText(p.notes) || '(none)'),
    '',
  ].join('\n');
}

/** Issue text for τ-bench's maintainers about an episode labelled as a task or annotation bug. */
export function taskBugText(t: TaskBugInput): string {
  const v = t.view;
  const agent = v.steps.map((s, i) => `${i + 1}. ${s.action} ${s.isRespond ? JSON.stringify(s.respondText ?? '') : oneLine(s.kwargs)}`).join('\n');
  const reference = v.reference.map((r, i) => `${i + 1}. ${r.action} ${oneLine(r.kwargs)}`).join('\n');
  const diff = v.diff.length
    ? v.diff
        .map(
          (d) =>
            `${d.table}/${d.key}\n${d.fields.map((f) => `  ${f.path}: agent ${f.agent ?? '(absent)'} / reference ${f.reference ?? '(absent)'}`).join('\n')}`,
        )
        .join('\n')
    : '(none: the agent’s DB equals the reference DB)';
  return issueText({
    benchmark: 'τ-bench',
    domain: t.domain,
    taskId: t.taskId === null ? null : String(t.taskId),
    facts: [
      `- data version: ${v.verdict.dataCommit}`,
      `- reward: ${formatReward(v.verdict.reward)} (recorded ${formatReward(v.verdict.recordedReward)}), rule ${v.verdict.rule}`,
      seenIn(t.file, `episode ${v.index}`),
    ],
    sections: [
      ['Instruction', v.instruction],
      ['Reference actions', reference || '(none)'],
      ['What the agent did', agent || '(no actions)'],
      ['DB diff (agent vs reference)', diff],
      ['Verdict', v.verdict.sentence],
    ],
    notes: t.notes,
  });
}
