/**
 * The τ² report says why: a failed simulation's section names the DB fields that differ from the gold DB and the call
 * that wrote each record, its checks in τ²'s order, what the reward ignores, and the what-if edits it was made with.
 * gym gpt-4.1 retail from ../shared/tau2/runs; the call a field is blamed on is checked against the file's own messages.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { tau2ReportParts } from '../../../../src/core/session/tau2/report';
import type { Tau2Session } from '../../../../src/core/session/tau2/session';
import { describeTau2, TAU2_DIR } from '../../../support/shared';
import { openTau2 } from '../../../support/tau2';

const RETAIL = 'sierra-research__gym-gpt-4.1-retail.json';

/** The section of simulation `i` in a report. */
const section = (html: string, i: number): string => {
  const at = html.indexOf(`<section id="sim-${i}">`);
  expect(at, `simulation ${i} has a section`).toBeGreaterThanOrEqual(0);
  return html.slice(at, html.indexOf('</section>', at));
};

/** The file's own calls of simulation `i`, in order (every message's tool_calls, as τ² replays them). */
const fileCalls = (i: number): { name: string; message: number }[] => {
  const run = JSON.parse(readFileSync(join(TAU2_DIR, 'runs', RETAIL), 'utf8')) as {
    simulations: { messages: { tool_calls?: { name: string }[] | null }[] }[];
  };
  return run.simulations[i]!.messages.flatMap((m, message) => (m.tool_calls ?? []).map((c) => ({ name: c.name, message })));
};

describeTau2('the τ² report explains a failed simulation', () => {
  let session: Tau2Session;
  let html: string;
  beforeAll(async () => {
    session = await openTau2(RETAIL);
    html = [...tau2ReportParts(session, RETAIL)].join('');
  }, 120_000);

  it('each differing record with its fields, predicted vs gold, and the call that wrote it', () => {
    // Every failed simulation whose DB check failed lists its records; the first one with a blamed record is looked at.
    const failed = Array.from({ length: session.size }, (_, i) => session.report(i)).filter((r) => r.db_match === false);
    expect(failed.length).toBeGreaterThan(0);
    for (const r of failed) expect(section(html, r.index)).toContain('data-testid="report-record"');
    // Simulation 26 (checked by hand): the agent's modify_pending_order_items of order #W5061109 set it to "pending (item
    // modified)" where the reference actions change nothing.
    const s = section(html, 26);
    const record = s.slice(s.indexOf('data-table="orders" data-key="#W5061109"'));
    expect(record.length).toBeLessThan(s.length);
    const calls = fileCalls(26);
    expect(calls[10]).toEqual({ name: 'modify_pending_order_items', message: 40 });
    expect(record).toContain('written by call 10 (modify_pending_order_items, message #40)');
    expect(record).toMatch(/<tr data-field="status"><td>status<\/td><td>&quot;pending \(item modified\)&quot;<\/td><td>&quot;pending&quot;<\/td><\/tr>/);
    // The verdict in τ²'s order, the basis first, before the diff; the failed write the reward ignores, apart.
    expect(s.indexOf('1. Reward basis: DB, COMMUNICATE')).toBeLessThan(s.indexOf('2. DB (in the reward = 0.0)'));
    expect(s.indexOf('Reward = DB 0.0 × COMMUNICATE 1.0 = 0.0')).toBeLessThan(s.indexOf('DB fields that differ'));
    expect(s).toContain('<li data-kind="failed-write"><span class="kind">failed write</span> · call 7 (modify_pending_order_items, message #26)');
    // In the dialogue, the call carries the same number.
    expect(s).toContain('call 10 · modify_pending_order_items(');
  });

  it('what the reward ignores: a write without an explicit yes, with its call and the user’s message', () => {
    expect(section(html, 23)).toContain(
      '<li data-kind="write-without-consent"><span class="kind">write without an explicit yes</span> · call 12 (cancel_pending_order, message #40) · message #39: ',
    );
  });

  it('made from an edited view: the edits in words, the reward before and after, the checks that changed', () => {
    const edited = [...tau2ReportParts(session, RETAIL, new Map(), new Map([[26, [{ messageIndex: 40, callIndex: 0, remove: true }]]]))].join('');
    const s = section(edited, 26);
    expect(s).toContain('What-if: 1 edit made in the app');
    expect(s).toContain('<li>removed call 10 (modify_pending_order_items, message #40)</li>');
    // Without that write the DB stays as it started, as the reference actions leave it.
    expect(s).toMatch(/reward 0\.0 → <b class="pass">1\.0<\/b>/);
    expect(s).toMatch(/<tr><td>DB: [^<]*<\/td><td>not met<\/td><td>met<\/td><\/tr>/);
    // A passed simulation with edits gets a section too; without edits the report has none of it.
    const passed = Array.from({ length: session.size }, (_, i) => session.report(i)).find((r) => r.reward === 1)!.index;
    expect(html).not.toContain('What-if:');
    const both = [...tau2ReportParts(session, RETAIL, new Map(), new Map([[passed, [{ messageIndex: 0, remove: true }]]]))].join('');
    expect(section(both, passed)).toContain('data-testid="report-what-if"');
  });

  it('an edit’s text with a bidi control is shown as the app shows it, never raw', () => {
    const flipped = 'Refund of \u202E00.01$ sent';
    const out = [...tau2ReportParts(session, RETAIL, new Map(), new Map([[26, [{ messageIndex: 2, content: flipped }]]]))].join('');
    const s = section(out, 26);
    expect(s).toContain('message #2’s text replaced by “Refund of <span class="cp"');
    expect(s).toContain('U+202E</span>00.01$ sent”');
    expect(out).not.toContain('\u202E');
  });
});
