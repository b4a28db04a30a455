import type { EpisodeView, RecordLine } from './episode-view';
import { codePointName, INVISIBLE } from './invisible';
import { describeData, formatPassK, formatRatio, formatRecorded, formatReward, shortData } from './format';
import type { DataLabel } from '../model/data/versions';
import type { EpisodeNotes } from './notes';
import { isSuccess, type PassK } from './pass-k';
import type { EpisodeHeader, EpisodeSummary } from './summary';

/** One episode of the report: always summarised; in full (`view`) when it failed. */
export interface ReportEpisode {
  readonly header: EpisodeHeader;
  /** Null: not evaluated (the report says so). */
  readonly summary: EpisodeSummary | null;
  /** The episode in full; given for failed episodes. */
  readonly view: EpisodeView | null;
  readonly notes: EpisodeNotes | null;
  /** Further sections where they exist (walkthrough, findings): a title and plain text each. */
  readonly sections?: readonly { readonly title: string; readonly text: string }[];
  /** The what-if section (HTML, `whatIfSectionHtml`) when the report was made with edits of this episode. */
  readonly whatIf?: string;
}

export type ReportNotes = ReadonlyMap<number, EpisodeNotes>;

export interface ReportInput {
  /** The results file's name (untrusted text). */
  readonly title: string;
  readonly domain: string;
  readonly data: DataLabel;
  readonly rule: string;
  readonly generatedAt: string;
  readonly passK: readonly PassK[];
  readonly episodes: readonly ReportEpisode[];
}

const ESC: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const SPECIAL = new RegExp(`[&<>"']|${INVISIBLE.source}`, 'g');

/**
 * Every text that enters the report as element content goes through here: markup escaped, and each
 * invisible or direction-changing character (see INVISIBLE) shown as the app shows it, a marked
 * `U+XXXX`, never written raw (an agent's "00.01$" after U+202E would read "$10.00").
 */
export const escapeHtml = (s: string): string =>
  s.replace(SPECIAL, (c) => ESC[c] ?? `<span class="cp" title="an invisible or direction-changing character in the text">${codePointName(c)}</span>`);

/** Text in an attribute value or the title (no markup there): as escapeHtml, the marks written `⟨U+XXXX⟩` as the app's labels write them. */
export const escapeAttr = (s: string): string => s.replace(SPECIAL, (c) => ESC[c] ?? `⟨${codePointName(c)}⟩`);

/** The style of the what-if section (`report-what-if.ts`, both reports). */
export const WHAT_IF_CSS = '.whatif{border:1px dashed #7a4fd0;padding:4px 8px;margin:6px 0}';

/** The report's style of those marks (both reports). */
export const CP_CSS =
  '.cp{font:10px system-ui,sans-serif;border-radius:2px;padding:0 2px;margin:0 1px;background:#e2e8f0;color:#475569}@media (prefers-color-scheme:dark){.cp{background:#334155;color:#cbd5e1}}';

const e = escapeHtml;
/** A commit's first 7 hex digits; any other data id (a sample's, an unknown version's) whole. */
const pre = (text: string, cls = ''): string => `<pre${cls ? ` class="${cls}"` : ''}>${e(text)}</pre>`;
const lines = (ls: readonly RecordLine[] | null): string =>
  ls === null ? '<p class="dim">(absent)</p>' : `<pre>${ls.map((l) => (l.marked ? `<mark>${e(l.text)}</mark>` : e(l.text))).join('\n')}</pre>`;

const CSS = `
:root{color-scheme:light dark}
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem auto;max-width:72rem;padding:0 1rem;color:#1a1a1a;background:#fff;overflow-wrap:anywhere}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem}h3{font-size:1rem;margin:1rem 0 .3rem}
a{color:#1a56b0}
table{border-collapse:collapse;overflow-wrap:normal}td,th{border:1px solid #ccc;padding:.15rem .45rem;text-align:left;vertical-align:top}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;padding:.4rem;margin:.2rem 0;font-size:12px}
mark{background:#ffe08a;color:inherit}.dim{color:#595959}.pass{color:#0a6b2d}.fail{color:#a3161a}
section{border-top:1px solid #ddd;padding:.3rem 0}details>summary{cursor:pointer}
.msg{margin:.3rem 0;padding-left:.5rem;border-left:3px solid #ccc}.msg.user{border-color:#4a7bd0}.msg.assistant{border-color:#9a5bd0}.msg.tool{border-color:#999}
.note{background:#fff8dc;border:1px solid #e0c96a;padding:.3rem .5rem}
ol.walk{list-style:none;padding-left:0}.wide{overflow-x:auto;max-width:100%}ol.walk li.lv1{padding-left:1.2rem}
nav.toc ol{padding-left:1.2rem}nav.toc .eps a{margin-right:.4rem;white-space:nowrap}
@media (prefers-color-scheme:dark){
body{color:#e4e4e4;background:#121417}a{color:#8ab4f8}
td,th{border-color:#4a4a4a}pre{background:#1e2126}mark{background:#6b5200}
.dim{color:#a8a8a8}.pass{color:#6fd394}.fail{color:#ff8a8a}section{border-color:#3a3a3a}
.msg{border-color:#555}.msg.user{border-color:#5b8fe6}.msg.assistant{border-color:#b07ee6}
.note{background:#2b2613;border-color:#7a6a2a}
}
`;

function passKText(pk: readonly PassK[]): string {
  if (pk.length === 0) return '';
  return `<p>${e(formatPassK(pk))}</p>`;
}

/** An episode's (or a τ² simulation's) notes as a block of the report; `view` names the steps of a τ-bench episode. */
export function notesHtml(n: EpisodeNotes | null, view: EpisodeView | null): string {
  if (!n) return '';
  const steps = Object.entries(n.steps)
    .filter(([, t]) => t.trim() !== '')
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([k, t]) => {
      const s = view?.steps[Number(k)];
      return `<li>step ${Number(k) + 1}${s ? ` (${e(s.action)})` : ''}: ${pre(t)}</li>`;
    });
  return `<div class="note"><h3>Notes</h3>${n.label ? `<p>label: <b>${e(n.label)}</b></p>` : ''}${n.note.trim() ? pre(n.note) : ''}${steps.length ? `<ul>${steps.join('')}</ul>` : ''}</div>`;
}

function dialogue(v: EpisodeView): string {
  return v.messages
    .map((m) => {
      const calls = m.toolCalls.map((c) => `<div>→ <code>${e(c.name)}</code>${pre(c.argumentsPretty ?? c.arguments)}</div>`).join('');
      const step = m.stepIndex !== null ? ` · step ${m.stepIndex + 1}` : '';
      const said = m.content !== null && m.content.trim() !== '';
      // A message with no text (a tool call's message, or nothing at all) shows no empty box.
      const body =
        m.role === 'system'
          ? `<details><summary>system prompt</summary>${pre(m.content ?? '')}</details>`
          : said
            ? pre(m.content!)
            : calls
              ? ''
              : ' <span class="dim">(empty message)</span>';
      return `<div class="msg ${escapeAttr(m.role)}"><b>${e(m.role)}</b> <span class="dim">#${m.index}${step}</span>${body}${calls}</div>`;
    })
    .join('');
}

function fullEpisode(v: EpisodeView): string {
  const vd = v.verdict;
  const verdict = `<h3>Verdict</h3><p>${e(vd.sentence)}</p><p class="dim">reward ${e(formatReward(vd.reward))} · recorded ${e(formatRecorded(vd))} · rule ${e(vd.rule)} · data ${e(shortData(vd.data))} · agent DB ${e(vd.agentHash.slice(0, 12))} · reference DB ${e(vd.gtHash.slice(0, 12))}${vd.crash ? ` · crash: ${e(vd.crash)}` : ''}</p>`;
  const diff = v.diff.length
    ? `<h3>DB diff (${v.diff.length} record${v.diff.length === 1 ? '' : 's'})</h3>${v.diff
        .map(
          (d) =>
            `<details><summary>${e(d.table)}/${e(d.key)}: ${d.fields.map((f) => e(`${f.path}: ${f.agent ?? '(absent)'} ≠ ${f.reference ?? '(absent)'}`)).join('; ')}</summary><div class="wide"><table><tr><th>agent</th><th>reference</th></tr><tr><td>${lines(d.agentLines)}</td><td>${lines(d.referenceLines)}</td></tr></table></div></details>`,
        )
        .join('')}`
    : '<h3>DB diff</h3><p class="dim">none: the agent’s DB equals the reference DB</p>';
  const outputs =
    v.outputs === null
      ? ''
      : `<h3>Required outputs</h3><ul>${v.outputs.map((o) => `<li class="${o.found ? 'pass' : 'fail'}">${o.found ? 'found' : 'missing'}: ${e(JSON.stringify(o.output))}${o.stepIndex !== null ? ` (step ${o.stepIndex + 1})` : ''}${o.elsewhere.length ? ` — also appears where τ-bench does not look (${o.elsewhere.map((x) => e(`message ${x.messageIndex}: ${x.kind}`)).join(', ')})` : ''}${o.near.length ? ` — closest things the agent said: ${o.near.map((n) => e(`${n.text} (step ${n.stepIndex + 1}${n.kind === 'part-of-sum' ? '' : `, ${n.detail}`})`)).join(', ')}${o.near[0]!.kind === 'part-of-sum' ? e(`; parts of ${o.near[0]!.detail}`) : ''}` : ''}</li>`).join('')}</ul>`;
  const reference = `<details><summary>Reference actions (${v.reference.length})</summary><ol>${v.reference.map((r) => `<li><code>${e(r.action)}</code>${pre(r.kwargs)}</li>`).join('')}</ol></details>`;
  const walk = v.walkthrough.length
    ? `<h3>How τ-bench judged it</h3><ol class="walk">${v.walkthrough.map((l) => `<li class="lv${l.level}">${e(l.text)}</li>`).join('')}</ol>`
    : '';
  const finds = v.findings.length
    ? `<h3>Findings (${v.findings.length})</h3><ul>${v.findings.map((f) => `<li><span class="dim">${e(f.group === 'procedure' ? 'procedure' : 'blind spot')}${f.step !== null ? ` · step ${f.step + 1}` : ''}:</span> ${e(f.text)}</li>`).join('')}</ul>`
    : '';
  return `${verdict}${walk}${finds}<h3>Instruction</h3>${pre(v.instruction)}${reference}${diff}${outputs}<h3>Dialogue</h3>${dialogue(v)}`;
}

/** Not passed: a reward below 1, or no reward (not evaluated, or cannot be). */
export const failedEpisode = (summary: EpisodeSummary | null): boolean => {
  const reward = summary?.reward ?? null;
  return reward === null || !isSuccess(reward);
};

/** The report's order: failed episodes first, then passed ones, each in file order. */
export function reportOrder<T extends { readonly summary: EpisodeSummary | null }>(eps: readonly T[]): T[] {
  return [...eps.filter((x) => failedEpisode(x.summary)), ...eps.filter((x) => !failedEpisode(x.summary))];
}

/** The heading before the first passed episode's section (the failed ones' heading ends `reportHead`). */
export const passedHeading = (count: number): string => `<h2 id="passed">Passed episodes (${count})</h2>\n`;

/** One episode's section of the report (see `reportHead`). */
export function episodeSection(ep: ReportEpisode): string {
  const { header: h, summary: s, view } = ep;
  const reward = s?.reward ?? null;
  const failed = failedEpisode(s);
  const head = `#${h.index} · task ${h.taskId ?? '–'} · trial ${h.trial ?? '–'} · reward <span class="${failed ? 'fail' : 'pass'}">${e(formatReward(reward))}</span>`;
  const why = s?.error
    ? `<p class="fail">cannot be evaluated: ${e(s.error)}</p>`
    : s && s.reasonTexts.length
      ? `<p>${s.reasonTexts.map(e).join('; ')}</p>`
      : s
        ? ''
        : '<p class="dim">not evaluated</p>';
  const extra = (ep.whatIf ?? '') + (ep.sections ?? []).map((x) => `<h3>${e(x.title)}</h3>${pre(x.text)}`).join('');
  const body =
    failed && view
      ? `<details open><summary>${head}</summary>${why}${notesHtml(ep.notes, view)}${extra}${fullEpisode(view)}</details>`
      : `<p>${head}</p>${why}${notesHtml(ep.notes, view)}${extra}`;
  return `<section id="ep-${h.index}" data-testid="report-episode" data-index="${h.index}" data-reward="${escapeAttr(formatReward(reward, ''))}">${body}</section>`;
}

/**
 * The offline report: one self-contained HTML document (inline CSS, no script, no external
 * resource; a CSP forbids any request) that any browser opens from disk. Every text from the
 * file, the notes or the model goes through `escapeHtml` (`escapeAttr` in attributes and the title).
 */
export function reportHtml(r: ReportInput): string {
  const ordered = reportOrder(r.episodes);
  const passed = ordered.filter((x) => !failedEpisode(x.summary)).length;
  const firstPassed = ordered.length - passed;
  return `${reportHead(r)}${ordered.map((x, i) => `${i === firstPassed ? passedHeading(passed) : ''}${episodeSection(x)}`).join('\n')}${REPORT_END}`;
}

/** What follows the last episode section. */
export const REPORT_END = '\n</body></html>\n';

/** The report as it is written piece by piece: everything before the first episode section (views are not needed here). */
export function reportHead(r: Omit<ReportInput, 'episodes'> & { readonly episodes: readonly Omit<ReportEpisode, 'view' | 'sections'>[] }): string {
  const eps = r.episodes;
  const evaluated = eps.filter((x) => x.summary && x.summary.error === null);
  const passed = evaluated.filter((x) => isSuccess(x.summary!.reward ?? 0)).length;
  const total = eps.reduce((sum, x) => sum + (x.summary?.reward ?? 0), 0);
  const labels = new Map<string, number>();
  for (const x of eps) if (x.notes?.label) labels.set(x.notes.label, (labels.get(x.notes.label) ?? 0) + 1);
  const ordered = reportOrder(eps);
  const failed = ordered.filter((x) => failedEpisode(x.summary));
  const rows = ordered
    .map(({ header: h, summary: s, notes: n }) => {
      const reward = s?.reward ?? null;
      const ok = !failedEpisode(s);
      return `<tr><td><a href="#ep-${h.index}">${h.index}</a></td><td>${h.taskId ?? '–'}</td><td>${h.trial ?? '–'}</td><td class="${ok ? 'pass' : 'fail'}">${e(formatReward(reward))}</td><td>${e(formatRecorded(h))}</td><td>${e(s?.error ? `cannot be evaluated: ${s.error}` : (s?.reasonTexts.join('; ') ?? ''))}</td><td>${e(n?.label ?? '')}</td></tr>`;
    })
    .join('');
  const toc = `<nav class="toc" aria-label="Contents"><h2>Contents</h2><ol>
<li><a href="#episodes">All ${eps.length} episodes</a>, failed first</li>
<li><a href="#${failed.length ? 'failed' : 'passed'}">Failed episodes (${failed.length})</a>${failed.length ? `: <span class="eps">${failed.map(({ header: h }) => `<a href="#ep-${h.index}">#${h.index}</a>`).join(' ')}</span>` : ''}</li>
<li><a href="#passed">Passed episodes (${eps.length - failed.length})</a></li>
</ol></nav>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeAttr(`tau-inspect report: ${r.title}`)}</title><style>${CSS}${CP_CSS}${WHAT_IF_CSS}</style></head>
<body>
<h1>τ-bench run report: ${e(r.title)}</h1>
<p>${eps.length} episodes · ${evaluated.length} evaluated · ${passed} passed · average reward ${formatRatio(total, eps.length)} · domain ${e(r.domain)} · data ${e(describeData(r.data))} · rule ${e(r.rule)}</p>
${passKText(r.passK)}
${labels.size ? `<p>labels: ${[...labels].map(([l, c]) => `${e(l)}: ${c}`).join(' · ')}</p>` : ''}
<p class="dim">Generated by tau-inspect on ${e(r.generatedAt)}. Failed episodes come first and are shown in full; passed ones in one line each.</p>
${toc}
<h2 id="episodes">Episodes</h2>
<div class="wide"><table><tr><th>#</th><th>task</th><th>trial</th><th>reward</th><th>recorded</th><th>why</th><th>label</th></tr>${rows}</table></div>
${failed.length ? `<h2 id="failed">Failed episodes (${failed.length})</h2>\n` : ''}`;
}
