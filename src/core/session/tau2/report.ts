/**
 * The offline report of a τ² run (the CLI's `report`): one self-contained HTML file, no script and
 * no request (a CSP in the file forbids both). Every simulation summarized, failed ones first and in
 * full: how τ² judged it, the DB fields that differ with the call that wrote each, what the reward ignores and what
 * else it does not count, the what-if edits it was made with, the dialogue with each call's replayed output.
 * Every text from the file goes through `escapeHtml` (`escapeAttr` in the title). Made piece by piece.
 */
import { CP_CSS, escapeAttr, escapeHtml as e, notesHtml } from '../../view/report-html';
import type { EpisodeNotes } from '../../view/notes';
import type { Tau2Report } from '../../view/tau2/report';
import { TAU2_WOULD_REFUSE } from '../../view/tau2/summary';
import type { Tau2Session } from './session';
import { formatRatio, formatReward } from '../../view/format';
import { interactionMetricsText } from '../../view/tau2/voice/metrics';
import type { VoiceTimelineView } from '../../view/tau2/voice/timeline';
import { tau2Explain } from '../../view/tau2/explain';
import { countIgnored, ignoredText } from '../../view/ignored';
import { tau2Ignored, TAU2_PROCEDURE_NOTE } from '../../view/tau2/procedure';
import { callName, messageName } from '../../view/tau2/numbering';
import type { StepEdit } from '../what-if';
import { dbDiffHtml, findingsHtml, verdictHtml, whatIfHtml, WHY_CSS } from './report-why';

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:16px;color:#111;background:#fff}
p,h1,h2{overflow-wrap:anywhere}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}td:nth-child(2){min-width:8em}.runs td:first-child{white-space:nowrap}th{white-space:nowrap}
.fail{color:#b00020}.pass{color:#06693a}pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f5f5f5;padding:6px;margin:4px 0}
section{border-top:2px solid #999;margin-top:24px}h2{font-size:17px}.role{font-weight:600}.note{color:#555}div.note{color:inherit;border-left:3px solid #c9a227;padding-left:8px}
@media (prefers-color-scheme: dark){body{background:#111;color:#eee}pre{background:#222}td,th{border-color:#333}.note{color:#aaa}.fail{color:#ff8a80}.pass{color:#8fe3b0}a{color:#9ecbff}}`;

/** ` (labels: agent error 2, …)` for the run's line, or nothing. */
function labelCounts(notes: ReadonlyMap<number, EpisodeNotes>): string {
  const counts = new Map<string, number>();
  for (const n of notes.values()) if (n.label) counts.set(n.label, (counts.get(n.label) ?? 0) + 1);
  return counts.size ? ` (labels: ${[...counts].map(([l, c]) => `${e(l)}: ${c}`).join(' · ')})` : '';
}

const num = (x: number | null): string => formatReward(x, '–');
const anchor = (r: Tau2Report): string => `sim-${r.index}`;
const why = (r: Tau2Report): string => {
  const verdict = verdictWhy(r);
  return r.tau2_would_refuse === null ? verdict : `${verdict}; ${TAU2_WOULD_REFUSE}${r.tau2_would_refuse}`;
};
const verdictWhy = (r: Tau2Report): string =>
  r.error ??
  (r.premature
    ? `ended: ${r.termination_reason}`
    : [
        ...(r.db_match === false ? ['DB differs'] : []),
        ...(r.env_assertions ?? []).filter((c) => !c.met).map(() => 'env assertion not met'),
        ...(r.reward_basis?.includes('ACTION') ? (r.action_checks ?? []).filter((c) => !c.action_match).map(() => 'action missed') : []),
        ...(r.communicate_checks ?? []).filter((c) => !c.met).map((c) => `not said: ${c.info}`),
      ].join('; ') || 'ok');

/** What the reward ignores over the run, counted by kind (as the overview and the CLI count), or nothing. */
function ignoredLine(reports: readonly Tau2Report[]): string {
  const counts = countIgnored(reports.map((r) => tau2Ignored(r.findings)));
  return counts.length > 0 ? `<p>${e(`What the reward ignores, over the run: ${ignoredText(counts, 'simulations')} (${TAU2_PROCEDURE_NOTE}).`)}</p>` : '';
}

const ignoredWhy = (r: Tau2Report): string => {
  const kinds = [...new Set(tau2Ignored(r.findings))];
  return kinds.length > 0 ? `<br><span class="note">the reward ignores: ${e(kinds.join(', '))}</span>` : '';
};

const callText = (c: Tau2Report['tool_calls'][number]): string =>
  `<pre class="note">${e(`${callName(c.index)} · ${c.name}(${JSON.stringify(c.arguments)})`)} → ${e(c.output ?? '(unknown tool: not run)')}${c.matches_recorded === false ? ' (differs from the recorded output)' : ''}</pre>`;

/** A voice simulation's dialogue: the transcript as τ² merges it, tick by tick, each call at its tick; who cut in. */
function voiceDialogue(v: VoiceTimelineView, r: Tau2Report): string[] {
  const rows: { tick: number; html: string }[] = [
    ...v.transcript.map((l) => ({
      tick: l.start,
      html: `<div><span class="role">${e(l.speaker)}</span> <span class="note">ticks ${l.start}–${l.end - 1}</span><pre>${e(l.text)}</pre></div>`,
    })),
    ...r.tool_calls.map((c) => ({
      tick: c.tick_id ?? 0,
      html: `<div><span class="role">${e(c.requestor)}</span> <span class="note">tick ${c.tick_id ?? '–'}, call</span>${callText(c)}</div>`,
    })),
    ...v.interruptions.map((x) => ({
      tick: x.tick,
      html: `<div class="note">tick ${x.tick}: the ${x.by} starts while the ${x.by === 'user' ? 'agent' : 'user'} speaks (${e(x.kind)})${
        x.stoppedAt === null ? '' : `; the ${x.by === 'user' ? 'agent' : 'user'} stops at tick ${x.stoppedAt}`
      }</div>`,
    })),
  ];
  return [
    `<p class="note">A full-duplex (voice) simulation of ${v.ticks} ticks: the transcript as τ² merges the chunks (by utterance id), every call at its tick.</p>`,
    ...rows.sort((a, b) => a.tick - b.tick).map((x) => x.html),
  ];
}

/**
 * `notes`: notes and labels by simulation index (the caller matched fingerprints), shown with each simulation they are on;
 * `edits`: what-if edits by simulation index (the app's report of an edited view), each simulation's shown with what they change.
 */
export function* tau2ReportParts(
  session: Tau2Session,
  title: string,
  notes: ReadonlyMap<number, EpisodeNotes> = new Map(),
  edits: ReadonlyMap<number, readonly StepEdit[]> = new Map(),
): Generator<string> {
  const reports = Array.from({ length: session.size }, (_, i) => session.report(i));
  const failed = reports.filter((r) => r.reward !== 1);
  // A simulation that cannot be judged has no reward: left out of the average, shown as not evaluable.
  const judged = reports.filter((r) => r.error === null);
  const total = judged.reduce((s, r) => s + r.reward, 0);
  const apart = reports.length - judged.length;
  yield `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeAttr(`tau-inspect report: ${title}`)}</title><style>${CSS}${CP_CSS}${WHY_CSS}</style></head><body>
<h1>${e(title)}</h1>
<p>τ²-bench ${e(session.run.domain)}: ${reports.length} simulations${apart > 0 ? `, ${apart} not evaluable (left out of the average)` : ''}, average reward ${formatRatio(total, judged.length)} = ${total}/${judged.length}; ${failed.length} not passed (listed first). Judged as τ² v1.0.1's evaluate_simulation (ALL) judges; NL assertions as recorded. ${e(session.dataWhy)}.</p>
${session.voice ? `<p>${e(interactionMetricsText(session.interactionMetrics()))}.</p>` : ''}
${session.run.refusal.first !== null ? `<p class="fail">${e(`${TAU2_WOULD_REFUSE}${session.run.refusal.first} (τ²'s Results.load loads none of it; verdicts from parts it reads as τ² would are given and marked)`)}</p>` : ''}
${notes.size ? `<p>${notes.size} simulations with notes${labelCounts(notes)}.</p>` : ''}
${ignoredLine(reports)}
<table class="runs"><thead><tr><th>#</th><th>task</th><th>trial</th><th>rec.</th><th>now</th><th>why</th><th>label</th></tr></thead><tbody>`;
  const edited = (i: number): readonly StepEdit[] => edits.get(i) ?? [];
  const ignores = (r: Tau2Report): boolean => r.findings.some((f) => f.group === 'procedure');
  // A passed simulation is shown when it has notes, edits or something the reward ignores (a matching DB proves no consent).
  const inFull = (r: Tau2Report): boolean => r.reward !== 1 || notes.has(r.index) || edited(r.index).length > 0 || ignores(r);
  const whatIf = (r: Tau2Report): string =>
    edited(r.index).length > 0 ? whatIfHtml(r.tool_calls, edited(r.index), session.whatIf(r.index, edited(r.index))) : '';
  for (const r of [...failed, ...reports.filter((x) => x.reward === 1)])
    yield `<tr><td>${!inFull(r) ? r.index : `<a href="#${anchor(r)}">${r.index}</a>`}</td><td>${e(r.task_id)}</td><td>${e(String(r.trial ?? '–'))}</td><td>${num(r.recorded_reward)}</td><td class="${r.reward === 1 ? 'pass' : 'fail'}">${r.error !== null ? 'not evaluable' : num(r.reward) + (r.matches_recorded_reward === false ? ' ≠' : '')}</td><td>${e(why(r))}${ignoredWhy(r)}</td><td>${e(notes.get(r.index)?.label ?? '')}</td></tr>`;
  yield '</tbody></table>';
  for (const r of reports.filter((x) => x.reward === 1 && inFull(x)))
    yield `<section id="${anchor(r)}"><h2>Simulation ${r.index}: task ${e(r.task_id)}, reward ${num(r.reward)}</h2>${notesHtml(notes.get(r.index) ?? null, null)}${whatIf(r)}${findingsHtml(
      r.tool_calls,
      r.findings.filter((f) => f.group === 'procedure'),
    )}</section>`;
  for (const r of failed) {
    const sim = session.run.simulations.find((s) => s.index === r.index)!;
    const parts = [
      `<section id="${anchor(r)}"><h2>Simulation ${r.index}: task ${e(r.task_id)}, reward ${num(r.reward)}</h2>${notesHtml(notes.get(r.index) ?? null, null)}`,
    ];
    const i = session.run.simulations.indexOf(sim);
    const view = session.simView(i);
    parts.push(
      whatIf(r),
      verdictHtml(tau2Explain(session.evaluate(i), session.run.tasks.get(sim.taskId) ?? null, false)),
      dbDiffHtml(view, r.tool_calls),
      findingsHtml(r.tool_calls, r.findings),
      '<h3>Dialogue</h3>',
    );
    const voice = sim.fullDuplex ? session.voiceTimeline(i) : null;
    if (voice !== null) {
      parts.push(...voiceDialogue(voice, r), '</section>');
      yield parts.join('\n');
      continue;
    }
    const calls = new Map<number, Tau2Report['tool_calls'][number][]>();
    for (const c of r.tool_calls) calls.set(c.message_index, [...(calls.get(c.message_index) ?? []), c]);
    sim.messages.forEach((m, i) => {
      if (m.role === 'tool') return;
      const text = m.content === null || m.content.trim() === '' ? '' : `<pre>${e(m.content)}</pre>`;
      const made = (calls.get(i) ?? []).map(callText);
      if (text === '' && made.length === 0) return;
      parts.push(`<div><span class="role">${e(m.role)}</span> <span class="note">${messageName(i)}</span>${text}${made.join('')}</div>`);
    });
    parts.push('</section>');
    yield parts.join('\n');
  }
  yield '</body></html>\n';
}
