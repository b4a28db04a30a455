/**
 * τ-bench's report made with what-if edits (the app's report of an edited view): the edited episode's section says the
 * edits in words, the reward before → after and what changed (DB fields, outputs), in the section τ²'s report uses too;
 * an edit's untrusted text is escaped; without edits the report has none of it. On the invented sample run.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InspectSession, sessionReportHtml, type StepEdit } from '../../../src/core/contract';
import { editWords, whatIfChanges } from '../../../src/core/session/report-what-if';
import { jsonDumps } from '../../../src/core/py/json-dumps';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../sample-runs');

async function sampleSession(): Promise<InspectSession> {
  const s = new InspectSession(readFileSync(join(ROOT, 'runs/retail-sample.json'), 'utf8'));
  const read = async (rel: string): Promise<string | null> => readFile(join(ROOT, 'data', rel), 'utf8').catch(() => null);
  s.useData(await s.loadData(read, 'sample-runs/data'));
  return s;
}

const section = (html: string, i: number): string => html.match(new RegExp(`<section id="ep-${i}"[\\s\\S]*?</section>`))?.[0] ?? '';

/** A failed episode whose DB differs because a write was made with other arguments than the reference's, and the edit that gives it the reference's. */
function fixableWrite(s: InspectSession): { index: number; edit: StepEdit; name: string } {
  for (let i = 0; i < s.records.length; i++) {
    const v = s.view(i);
    if ('error' in v || v.verdict.reward === 1 || v.diff.length === 0) continue;
    const wrong = v.alignment.pairs.find((p) => p.match === 'other-args' && p.write);
    if (!wrong) continue;
    const gold = s.records[i]!.task!.actions[wrong.gold!]!;
    const step = v.steps.find((x) => x.action === gold.name && x.changes.length > 0);
    if (!step) continue;
    const edit = { messageIndex: step.messageIndex, kwargsJson: jsonDumps(gold.kwargs) };
    const after = s.whatIf(i, [edit]);
    if (!('error' in after) && after.verdict.rActions) return { index: i, edit, name: gold.name };
  }
  throw new Error('the sample has no episode with a write to fix');
}

describe('τ-bench’s report made with what-if edits', () => {
  it('the edited episode: its edit in words (a write given the reference’s arguments), the reward before → after, the DB fields that no longer differ', async () => {
    const s = await sampleSession();
    const { index, edit, name } = fixableWrite(s);
    const recorded = s.view(index);
    const edited = s.whatIf(index, [edit]);
    if ('error' in recorded || 'error' in edited) throw new Error('no view');
    const html = sessionReportHtml(s, { title: 'sample', generatedAt: 'now', edits: new Map([[index, [edit]]]) });
    const mine = section(html, index);
    expect(mine).toContain('data-testid="report-what-if"');
    expect(mine).toContain('<h3>What-if: 1 edit made in the app</h3>');
    expect(mine).toContain(`<li>${editWords(edit, recorded).replaceAll('"', '&quot;')}</li>`);
    expect(editWords(edit, recorded)).toMatch(new RegExp(`^step \\d+ \\(message #${edit.messageIndex}\\) changed to ${name}\\(\\{`));
    expect(mine).toMatch(/reward 0\.0 → <b class="(pass|fail)">[\d.]+<\/b>/);
    expect(mine).toContain(`<b class="${edited.verdict.reward === 1 ? 'pass' : 'fail'}">`);
    // What changed: the DB check met, and each field that differed from the reference now as the reference.
    const changes = whatIfChanges(recorded, edited);
    expect(changes[0]).toEqual({ what: 'DB check: the agent’s DB hash equals the reference DB’s', before: 'not met', after: 'met' });
    const fields = recorded.diff.flatMap((d) => d.fields.map((f) => `DB ${d.table}/${d.key} · ${f.path}`));
    expect(fields.length).toBeGreaterThan(0);
    for (const f of fields) expect(changes.find((c) => c.what === f)?.after).toBe('as the reference');
    expect(mine).toContain('<th>what τ-bench checks</th><th>before</th><th>after</th>');
    // The recorded episode is still what the rest of its section shows; other episodes have no what-if.
    expect(mine).toContain('The verdict and the dialogue below are the recorded episode’s.');
    expect(html.match(/data-testid="report-what-if"/g)).toHaveLength(1);
    expect(sessionReportHtml(s, { title: 'sample', generatedAt: 'now' })).not.toContain('report-what-if');
  });

  it('a respond edited with hostile text (markup, bidi controls): escaped as the report escapes every text; an output now found', async () => {
    const s = await sampleSession();
    const index = s.records.findIndex((_, i) => {
      const v = s.view(i);
      return !('error' in v) && (v.outputs ?? []).some((o) => !o.found);
    });
    expect(index).toBeGreaterThanOrEqual(0);
    const v = s.view(index);
    if ('error' in v) throw new Error(v.error);
    const missing = v.outputs!.find((o) => !o.found)!;
    const respond = v.steps.findLast((x) => x.isRespond)!;
    const hostile = `<img src=x onerror=alert(1)>\u202Egnp.exe\u202C the answer is ${missing.output}`;
    const edit: StepEdit = { messageIndex: respond.messageIndex, content: hostile };
    const html = sessionReportHtml(s, { title: 'sample', generatedAt: 'now', edits: new Map([[index, [edit]]]) });
    const mine = section(html, index);
    expect(mine).toContain(
      '&lt;img src=x onerror=alert(1)&gt;<span class="cp" title="an invisible or direction-changing character in the text">U+202E</span>gnp.exe',
    );
    expect(html).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/u);
    expect(html).not.toContain('<img');
    expect(mine).toContain(
      `<td>${`required output “${missing.output}”`.replaceAll('"', '&quot;')}</td><td>missing</td><td>found (step ${respond.index + 1})</td>`,
    );
  });

  it('edits that cannot be applied: the reason, and no reward line', async () => {
    const s = await sampleSession();
    const edit: StepEdit = { messageIndex: 9999, remove: true };
    const html = sessionReportHtml(s, { title: 'sample', generatedAt: 'now', edits: new Map([[0, [edit]]]) });
    const mine = section(html, 0);
    expect(mine).toContain('<li>removed message #9999</li>');
    expect(mine).toMatch(/<p class="fail">The edits could not be applied: [^<]+<\/p><\/div>/);
    expect(mine).not.toContain('reward 0.0 →');
  });
});
