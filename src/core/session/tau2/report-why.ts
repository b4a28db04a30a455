/**
 * What the τ² report says about a simulation besides its dialogue — why it failed: how τ² judged it in its order (the
 * task's reward_basis first, each component with its evidence), the DB fields that differ from the gold DB with the call
 * that wrote each record (the screen's field diff and blame), what the reward ignores (procedure findings) and what else
 * τ² does not count, and the what-if edits the report was made with. HTML pieces; every text through `escapeHtml`.
 */
import { escapeAttr, escapeHtml as e } from '../../view/report-html';
import { MAX_FIELDS } from '../../view/tau2/db-diff';
import { callName, messageName } from '../../view/tau2/numbering';
import type { Tau2Finding } from '../../view/tau2/findings';
import { TAU2_PROCEDURE_KINDS, TAU2_PROCEDURE_NOTE, type Tau2ProcedureKind } from '../../view/tau2/procedure';
import type { Tau2Report } from '../../view/tau2/report';
import type { Tau2SimView } from '../../view/tau2/sim-view';
import { inertJson } from '../../view/inert-json';
import { WHAT_IF_CSS, whatIfSectionHtml } from '../../view/report-what-if';
import type { StepEdit } from '../what-if';
import type { Tau2WhatIfView } from './what-if';

/** The report's style of these pieces (beside report.ts's own). */
export const WHY_CSS = `.walk div{white-space:pre-wrap;overflow-wrap:anywhere}.walk .sub{padding-left:1.5em;color:#444}
.rec{margin:6px 0;padding:4px 6px;border-left:3px solid #b00020}.rec table{table-layout:fixed}.rec th:nth-child(1){width:30%}.rec td{overflow-wrap:anywhere}.rec td:first-child{font-family:monospace}.absent{color:#777;font-style:italic}
.ignored li{margin:3px 0}.kind{font-weight:600}${WHAT_IF_CSS}
@media (prefers-color-scheme: dark){.walk .sub{color:#bbb}.absent{color:#999}}`;

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** A simulation's calls as its report line has them (`Tau2Report.tool_calls`). */
type Calls = Tau2Report['tool_calls'];

/** `call 12 (cancel_pending_order, message #40)`: the one numbering, with what the reader needs to find it. */
export function callLabel(calls: Calls, index: number): string {
  const c = calls[index];
  return c?.index === index ? `${callName(index)} (${c.name}, ${messageName(c.message_index)})` : callName(index);
}

/** How τ² judged it, line by line in its order (sub-lines indented), without the findings (listed apart). */
export function verdictHtml(lines: readonly string[]): string {
  return `<h3>How τ² judged it</h3><div class="walk">${lines.map((l) => `<div${l.startsWith('   ') ? ' class="sub"' : ''}>${e(l.trim())}</div>`).join('')}</div>`;
}

const value = (v: string | null): string => (v === null ? '<span class="absent">(absent)</span>' : e(v));

/** The records that differ from the gold DB, each with its differing fields and the calls that wrote it. */
export function dbDiffHtml(view: Tau2SimView, calls: Calls): string {
  const db = view.db;
  if (db === null || db.match !== false) return '';
  const head = `<h3>DB fields that differ (${plural(db.diff.length, 'record')})</h3><p class="note">predicted: the DB after the agent’s calls; gold: the DB after the task’s reference actions. τ² compares their hashes; these are the records behind the difference, each with the calls of the agent’s run that wrote it.</p>`;
  const why = [
    db.nondeterministic ? '<p class="note">A tool drew a random id: these hashes cannot be reproduced by anyone.</p>' : '',
    db.diffError !== null ? `<p class="fail">The diff could not be computed: ${e(db.diffError)}</p>` : '',
    db.diff.length === 0 && db.diffError === null ? '<p class="note">No record differs as dumped: the hashes differ in how a value is written.</p>' : '',
  ].join('');
  const records = db.diff.map((d) => {
    const where = `${d.db} DB · ${d.table}${d.key === null ? '' : `/${d.key}`}`;
    const by =
      d.blame.length > 0
        ? `written by ${d.blame.map((c) => callLabel(calls, c)).join(', ')}`
        : d.predicted === d.gold
          ? ''
          : 'no call of the agent wrote it: the reference actions changed it, the agent did not';
    const rows = d.fields
      .map(
        (f) =>
          `<tr data-field="${escapeAttr(f.path)}"><td>${e(f.path)}${f.intVsFloat ? ' <span class="note">(equal numbers, int vs float: τ²’s hash tells them apart)</span>' : ''}</td><td>${value(f.predicted)}</td><td>${value(f.gold)}</td></tr>`,
      )
      .join('');
    return `<div class="rec" data-testid="report-record" data-table="${escapeAttr(d.table)}" data-key="${escapeAttr(d.key ?? '')}"><b>${e(where)}</b>${by ? ` — ${e(by)}` : ''}${
      d.fields.length > 0
        ? `<table><thead><tr><th>field</th><th>predicted</th><th>gold</th></tr></thead><tbody>${rows}</tbody></table>${d.fields.length >= MAX_FIELDS ? `<p class="note">the first ${MAX_FIELDS} fields</p>` : ''}`
        : `<p class="note">${d.predicted === null ? 'only in the gold DB' : d.gold === null ? 'only in the predicted DB' : 'differs as a whole'}</p>`
    }</div>`;
  });
  return head + why + records.join('');
}

/** What the reward ignores (the policy's procedure), then what else τ² does not count. */
export function findingsHtml(calls: Calls, findings: readonly Tau2Finding[]): string {
  const policy = findings.filter((f) => f.group === 'procedure');
  const other = findings.filter((f) => f.group !== 'procedure');
  const where = (f: Tau2Finding): string =>
    [f.call === undefined ? null : callLabel(calls, f.call), f.message === undefined ? null : messageName(f.message)].filter((x) => x !== null).join(' · ');
  return (
    (policy.length > 0
      ? `<h3>What the reward ignores (${policy.length})</h3><p class="note">${e(TAU2_PROCEDURE_NOTE)}</p><ul class="ignored">${policy
          .map(
            (f) =>
              `<li data-kind="${escapeAttr(f.kind)}"><span class="kind">${e(TAU2_PROCEDURE_KINDS[f.kind as Tau2ProcedureKind])}</span> · ${e(where(f))}: ${e(f.text)}</li>`,
          )
          .join('')}</ul>`
      : '') + (other.length > 0 ? `<h3>Not counted by τ² (${other.length})</h3><ul>${other.map((f) => `<li>${e(f.text)}</li>`).join('')}</ul>` : '')
  );
}

/** One what-if edit in words, its call and message named as every panel names them. */
export function editText(calls: Calls, edit: StepEdit): string {
  const call = calls.filter((c) => c.message_index === edit.messageIndex)[edit.callIndex ?? 0];
  const at = call ? callLabel(calls, call.index) : messageName(edit.messageIndex);
  if (edit.insert) return `inserted before ${at}: ${edit.name ?? '?'}(${edit.kwargsJson ?? '{}'})${edit.requestor === 'user' ? ', called by the user' : ''}`;
  if (edit.remove) return `removed ${at}`;
  if (edit.content !== undefined) return `${messageName(edit.messageIndex)}’s text replaced by “${edit.content}”`;
  return `${at} changed to ${edit.name ?? call?.name ?? '?'}(${edit.kwargsJson ?? (call ? inertJson(call.arguments) : '{}')})`;
}

/** The what-if edits the report was made with, and what they change in the verdict (the section both reports share). */
export function whatIfHtml(calls: Calls, edits: readonly StepEdit[], result: Tau2WhatIfView | { readonly error: string }): string {
  const note = 'Not the recorded run: the simulation as edited, judged again as τ² judges it. The verdict and the dialogue below are the recorded run’s.';
  const met = (x: boolean | null): string => (x === null ? 'not run' : x ? 'met' : 'not met');
  return whatIfSectionHtml(
    note,
    edits.map((x) => editText(calls, x)),
    'error' in result
      ? result
      : {
          rewardBefore: result.rewardBefore,
          rewardAfter: result.rewardAfter,
          columns: ['check', 'before', 'after'],
          changes: result.checks
            .filter((c) => c.before !== c.after)
            .map((c) => ({
              what: `${c.component}: ${c.what}`,
              ...(c.counts ? {} : { aside: '(not in this task’s reward)' }),
              before: met(c.before),
              after: met(c.after),
            })),
          unchanged: 'No check changes.',
          removed: result.removed.map((r) => r.text),
          note: result.note,
        },
  );
}
