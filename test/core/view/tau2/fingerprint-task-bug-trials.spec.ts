/** τ² review in core: a simulation's notes fingerprint, its task-bug issue text, the report with notes. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  episodeFingerprint,
  notesByIndex,
  readTau2Folder,
  readTau2Text,
  compareTau2Trials,
  Tau2Session,
  tau2Headers,
  tau2ReportParts,
  tau2TaskBugText,
  type EpisodeNotes,
} from '../../../../src/core/contract';
import type { EpisodeRecord } from '../../../../src/core/model/episode/types';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../../../sample-runs');
const text = (): string => readFileSync(join(root, 'runs', 'tau2-mock-sample.json'), 'utf8');
const read = async (rel: string): Promise<string | null> => {
  try {
    return readFileSync(join(root, 'tau2-data', rel), 'utf8');
  } catch {
    return null;
  }
};
const fingerprints = (t: string): string[] => tau2Headers(readTau2Text(t)!).map((h) => h.fingerprint);
const HOSTILE = '<script>alert(1)</script> ``` closes? [x](javascript:alert(2))';

const note = (fingerprint: string, label: EpisodeNotes['label'], n: string): EpisodeNotes => ({
  fingerprint,
  label,
  note: n,
  steps: {},
  file: null,
  index: null,
  taskId: null,
  updatedAt: '2026-12-04T00:00:00.000Z',
});

describe('a τ² simulation’s fingerprint (the key its notes are kept under)', () => {
  it('is distinct per simulation and the same for a copy of the file written by another JSON tool', () => {
    const fps = fingerprints(text());
    expect(fps.every((f) => /^[0-9a-f]{64}$/.test(f))).toBe(true);
    expect(new Set(fps).size).toBe(fps.length);
    // Keys reordered, indentation gone, 1.0 written as 1: the same content, the same fingerprints.
    const parsed = JSON.parse(text()) as { simulations: Record<string, unknown>[] };
    const reordered = { ...parsed, simulations: parsed.simulations.map((s) => Object.fromEntries(Object.entries(s).reverse())) };
    expect(fingerprints(JSON.stringify(reordered))).toEqual(fps);
  });

  it('is the same for the simulation read from a run folder (results.json + simulations/<id>.json)', () => {
    const parsed = JSON.parse(text()) as { simulations: { id: string }[] };
    const results = JSON.stringify({ ...parsed, simulations: [] });
    const sims = parsed.simulations.map((s, i) => ({ name: `${String(i).padStart(2, '0')}.json`, text: JSON.stringify(s) }));
    expect(tau2Headers(readTau2Folder(results, sims)).map((h) => h.fingerprint)).toEqual(fingerprints(text()));
  });

  it('changes with what was said, not with the reward, timing or the file', () => {
    const parsed = JSON.parse(text()) as { simulations: { messages: { content: string | null }[]; reward_info: { reward: number }; duration?: number }[] };
    const fps = fingerprints(text());
    const said = structuredClone(parsed);
    const m = said.simulations[1]!.messages.find((x) => typeof x.content === 'string')!;
    m.content = `${m.content} (edited)`;
    const after = fingerprints(JSON.stringify(said));
    expect(after[1]).not.toBe(fps[1]);
    expect(after.filter((f, i) => f !== fps[i])).toHaveLength(1);
    const rescored = structuredClone(parsed);
    rescored.simulations[1]!.reward_info.reward = 0.5;
    rescored.simulations[1]!.duration = 99;
    expect(fingerprints(JSON.stringify(rescored))).toEqual(fps);
  });

  it('is apart from a τ-bench episode’s fingerprint over the same values', () => {
    const run = readTau2Text(text())!;
    const sim = run.simulations[0]!;
    const task = run.tasks.get(sim.taskId)!;
    const asEpisode = {
      raw: new Map([
        ['info', new Map([['task', task.raw]])],
        ['traj', sim.raw.get('messages')!],
      ]),
    } as unknown as Pick<EpisodeRecord, 'raw'>;
    expect(fingerprints(text())[0]).not.toBe(episodeFingerprint(asEpisode));
  });
});

describe('τ² task-bug issue text and the report with notes', () => {
  it('names the τ² task id and domain, the simulation, the checks and the notes, all quoted text fenced', async () => {
    const session = await Tau2Session.open(readTau2Text(text())!, read);
    const v = session.simView(1);
    const t = tau2TaskBugText({ view: v, domain: 'mock', file: `${HOSTILE}.json`, notes: note('f', 'task or annotation bug', HOSTILE) });
    expect(t.split('\n')[0]).toBe(`## τ²-bench mock task ${v.taskId}: possible task or annotation bug`);
    expect(t).toContain(`- task id: ${v.taskId}`);
    expect(t).toContain('- domain: mock');
    expect(t).toContain(`- simulation: ${v.simulationId} (trial 1)`);
    expect(t).toContain('simulation 1');
    for (const d of v.db!.diff) expect(t).toContain(d.table);
    expect(v.db!.diff.length).toBeGreaterThan(0);
    expect(t).toMatch(/env assertion .* — not met/);
    expect(t).toContain('### How τ² judged it');
    // The hostile text only inside fences longer than its own backtick run.
    let fence: string | null = null;
    for (const line of t.split('\n')) {
      const f = /^(`{3,})$/.exec(line)?.[1] ?? /^(`{3,})\S*$/.exec(line)?.[1];
      if (fence === null && f) fence = f;
      else if (fence !== null && line === fence) fence = null;
      else if (line.includes('<script>') && fence === null) expect(line).toMatch(/`{4,}.*<script>.*`{4,}/);
    }
    expect(fence).toBeNull();
  });

  it('a telecom-like task id with spaces or brackets is inline code, so it cannot start a link or a heading', async () => {
    const session = await Tau2Session.open(readTau2Text(text())!, read);
    const v = { ...session.simView(0), taskId: '[mobile_data] x](y) #1' };
    const t = tau2TaskBugText({ view: v, domain: 'telecom', file: 'run.json', notes: null });
    expect(t.split('\n')[0]).toBe('## τ²-bench telecom task ` [mobile_data] x](y) #1 `: possible task or annotation bug');
  });

  it('the report shows each noted simulation’s label and note (a passed one too), escaped', async () => {
    const run = readTau2Text(text())!;
    const session = await Tau2Session.open(run, read);
    const fps = tau2Headers(run).map((h) => h.fingerprint);
    const byIndex = notesByIndex(fps, [
      note(fps[0]!, 'evaluator blind spot', 'passed but <b>odd</b>'),
      note(fps[4]!, 'agent error', 'never said it'),
      note('0'.repeat(64), 'other', 'another run'),
    ]);
    expect([...byIndex.keys()]).toEqual([0, 4]);
    const html = [...tau2ReportParts(session, 'sample.json', byIndex)].join('');
    expect(html).toContain('passed but &lt;b&gt;odd&lt;/b&gt;');
    expect(html).toContain('never said it');
    expect(html).not.toContain('another run');
    expect(html).toContain('<a href="#sim-0">0</a>');
    expect(html).toMatch(/<td>agent error<\/td><\/tr>/);
    expect(html).toContain('labels: evaluator blind spot: 1 · agent error: 1');
    const without = [...tau2ReportParts(session, 'sample.json')].join('');
    expect(without).not.toContain('class="note"><h3>');
  });
});

describe('two trials of a τ² task side by side (compareTau2Trials)', () => {
  it('part at the first reference action or write one trial did otherwise; else at the first check; never for a trial and itself', async () => {
    const session = await Tau2Session.open(readTau2Text(text())!, read);
    const [pass, unsaid, wrong] = [3, 4, 5].map((i) => session.simView(i));
    expect([pass, unsaid, wrong].map((v) => [v!.taskId, v!.reward])).toEqual([
      ['offsite_for_bram', 1],
      ['offsite_for_bram', 0],
      ['offsite_for_bram', 0],
    ]);
    const same = compareTau2Trials(pass!, pass!);
    expect(same.parts).toBeNull();
    expect(same.rows.some((r) => r.apart)).toBe(false);

    // The same call, the same DB: only the communicate check is apart.
    const c1 = compareTau2Trials(pass!, unsaid!);
    expect(c1.rows.filter((r) => r.apart).map((r) => [r.kind, r.a, r.b])).toEqual([['check', 'met', 'not met']]);
    expect(c1.parts?.onWrite).toBe(false);
    expect(c1.parts?.why).toMatch(/^communicate “task_3”: A met, B not met \(rewards 1\.0 and 0\.0\)$/);

    // Another write: the reference action first, then the DB check and the record that differs from gold.
    const c2 = compareTau2Trials(pass!, wrong!);
    expect(c2.parts?.onWrite).toBe(true);
    const first = c2.rows[c2.parts!.row]!;
    expect(first.kind).toBe('action');
    expect(first.a).toMatch(/^called \(call \d+\)$/);
    expect(first.b).not.toBe(first.a);
    expect(c2.rows.some((r) => r.kind === 'db' && r.apart && r.a === 'as gold' && r.b.startsWith('differs from gold'))).toBe(true);
    expect(c2.rows.find((r) => r.name === 'DB check')).toMatchObject({ a: 'matches gold', b: 'differs', apart: true });
  });
});
