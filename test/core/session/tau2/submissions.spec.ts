/**
 * Leaderboard submissions re-judged (issue #33 item 6), on the invented sample submissions (sample-runs/submissions,
 * made by scripts/submissions-sample.ts): a claim equal to the recomputed pass^k, a claim higher than it (flagged), a
 * trajectory file named but missing (listed), a malformed submission.json (named field by field, the rest compared).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claimFlag, parseSubmission, submissionView, type SubmissionFile, type SubmissionView } from '../../../../src/core/session/tau2/submissions';
import { tau2RunRows } from '../../../../src/core/session/index-row';
import { Tau2Session } from '../../../../src/core/session/tau2/session';
import { SUBMISSIONS, submissionsSampleFiles } from '../../../../scripts/submissions-sample';
import { sampleTau2Read } from '../../../support/voice';

const ROOT = resolve(import.meta.dirname, '../../../..');
const read = (p: string): string => readFileSync(join(ROOT, p), 'utf8');

/** Every trajectory file of an entry judged into index rows, as the CLI and the app judge them. */
async function judged(entry: string): Promise<SubmissionFile[]> {
  const dir = join(ROOT, SUBMISSIONS, entry, 'trajectories');
  if (!existsSync(dir)) return [];
  return Promise.all(
    readdirSync(dir)
      .sort()
      .map(async (name) => {
        const run = Tau2Session.read(readFileSync(join(dir, name), 'utf8'));
        const session = await Tau2Session.open(run, sampleTau2Read);
        return { name, rows: tau2RunRows(run, { file: name, content_hash: name }, (i) => session.report(i)), error: null };
      }),
  );
}

async function view(entry: string): Promise<SubmissionView> {
  return submissionView(entry, parseSubmission(read(`${SUBMISSIONS}/${entry}/submission.json`)), await judged(entry));
}

describe('the invented sample submissions', () => {
  const views = new Map<string, SubmissionView>();
  beforeAll(async () => {
    for (const e of readdirSync(join(ROOT, SUBMISSIONS)).sort()) views.set(e, await view(e));
  });

  it('the committed files are what scripts/submissions-sample.ts makes (run it after changing the script)', async () => {
    const made = await submissionsSampleFiles(read);
    for (const [path, body] of made) expect(read(path), path).toBe(body);
    const listed = (d: string): string[] =>
      readdirSync(join(ROOT, d), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listed(`${d}/${e.name}`) : [`${d}/${e.name}`]));
    expect(listed(SUBMISSIONS).sort()).toEqual([...made.keys()].sort());
  });

  it('a claim equal to the recomputed pass^k: nothing flagged', () => {
    const a = views.get('invented-model-a_example-lab_2026-11-30')!;
    expect(a).toMatchObject({
      modelName: 'Invented-Model-A',
      organization: 'Example Lab',
      errors: [],
      notes: [],
      missingFiles: [],
      unnamedFiles: [],
      flagged: 0,
    });
    // The cost it claims beside the mean agent_cost its simulations record.
    expect(a.domains[0]).toMatchObject({ claimedCost: 0.012, recordedCost: 0.01, model: 'Invented-Model-A' });
    expect(a.domains).toHaveLength(1);
    expect(a.domains[0]).toMatchObject({ domain: 'retail', file: 'retail.json', missing: false, error: null, tasks: 2, trials: 2, simulations: 4 });
    expect(a.domains[0]!.passK).toEqual([
      { k: 1, claimed: 75, recomputed: 75, recorded: 75, flag: null },
      { k: 2, claimed: 50, recomputed: 50, recorded: 50, flag: null },
    ]);
  });

  it('a claim higher than the recomputed pass^k is flagged; a named trajectory file the folder lacks is listed', () => {
    const b = views.get('invented-model-b_other-lab_2026-12-01')!;
    expect(b.flagged).toBe(1);
    expect(b.missingFiles).toEqual(['telecom.json']);
    // As τ²'s prepare_submission warns: the model the trajectories record is another.
    expect(b.notes).toEqual(["model_name 'Invented-Model-B' is not the model the trajectories record ('invented-model-b-2026-11', info.agent_info.llm)"]);
    const [retail, telecom] = b.domains;
    expect(retail!.passK.map((p) => [p.k, p.claimed, p.recomputed, p.flag])).toEqual([
      [1, 62.5, 25, 'higher'],
      [2, 0, 0, null],
    ]);
    expect(telecom).toMatchObject({ domain: 'telecom', file: 'telecom.json', missing: true, simulations: 0 });
    expect(telecom!.passK).toEqual([{ k: 1, claimed: 40, recomputed: null, recorded: null, flag: null }]);
  });

  it('a malformed submission.json: each field named, the claims it can read still compared with the trajectories', () => {
    const c = views.get('invented-model-c_broken-lab_2026-12-02')!;
    expect(c.errors).toEqual([
      'model_organization: missing (the leaderboard requires it)',
      'results.retail.pass_1: should be a percentage from 0 to 100, not "high"',
    ]);
    expect(c.domains[0]!.passK).toEqual([
      { k: 1, claimed: null, recomputed: 75, recorded: 75, flag: null },
      { k: 2, claimed: 50, recomputed: 50, recorded: 50, flag: null },
    ]);
  });
});

describe('submission.json read as the leaderboard reads it', () => {
  it('not JSON: the parser’s words with line and column; nothing else is claimed', () => {
    const p = parseSubmission('{"model_name": "x",\n  "results": {oops}}');
    expect(p.errors).toEqual(['submission.json is not JSON: Expecting property name enclosed in double quotes: line 2 column 15 (char 34)']);
    expect(p.claims.size).toBe(0);
  });

  it('names each field it cannot use: another domain, a percentage out of range, a cost below 0, a file outside trajectories/', () => {
    const p = parseSubmission(
      JSON.stringify({
        model_name: 'M',
        model_organization: 'O',
        submitting_organization: 'O',
        submission_date: '1 May',
        contact_info: {},
        results: { airline: { pass_1: 101, pass_2: 40, cost: -1 }, mock: { pass_1: 1 } },
        trajectory_files: { airline: '../airline.json', retail: 7 },
      }),
    );
    expect(p.errors).toEqual([
      'submission_date: should be a date (YYYY-MM-DD), not "1 May"',
      'results.airline.pass_1: should be a percentage from 0 to 100, not 101',
      'results.airline.cost: should be a number ≥ 0, not -1',
      'results.mock: not a leaderboard domain (retail, airline, telecom, banking_knowledge)',
      'trajectory_files.airline: names a file outside trajectories/ ("../airline.json")',
      'trajectory_files.retail: should be a file name, not 7',
    ]);
    expect(p.claims.get('airline')).toEqual({ pass: [null, 40, null, null], cost: null });
  });

  it('a claim is flagged beyond half a unit of its own last decimal place', () => {
    expect(claimFlag(61.2, 61.24)).toBeNull();
    expect(claimFlag(61.2, 61.26)).toBe('lower');
    expect(claimFlag(61, 61.04)).toBeNull();
    expect(claimFlag(61.25, 61.2)).toBe('higher');
    expect(claimFlag(null, 3)).toBeNull();
  });

  it('no trajectory_files: each file is matched to the domain its simulations are of', async () => {
    const files = await judged('invented-model-a_example-lab_2026-11-30');
    const v = submissionView('x', parseSubmission(JSON.stringify({ model_name: 'Invented-Model-A', results: { retail: { pass_1: 75 } } })), files);
    expect(v.domains.map((d) => [d.domain, d.file, d.passK[0]!.flag])).toEqual([['retail', 'retail.json', null]]);
    expect(v.notes).toEqual([]);
    // A domain the trajectories hold that no claim covers is said.
    const none = submissionView('x', parseSubmission(JSON.stringify({ model_name: 'Invented-Model-A', results: {} })), files);
    expect(none.notes).toEqual(['the trajectories hold retail simulations, and submission.json claims nothing for retail']);
  });
});
