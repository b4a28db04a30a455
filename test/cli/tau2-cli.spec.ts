/** The CLI on τ² runs: a results file, a run folder, a damaged file, explain, and a domain not ported yet. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { cliBundle } from '../support/cli-bundle';
import { describeTau2, TAU2_DIR } from '../support/shared';

const root = resolve(import.meta.dirname, '../..');
let dir = '';
let bundle = '';
// The CLI bundled once per test run (as `npm run build:cli` ships it, test/support/cli-bundle.ts), so each run is plain node.
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tau2-cli-'));
  bundle = await cliBundle();
  return () => rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [bundle, ...args], { encoding: 'utf8', cwd: root, maxBuffer: 1 << 28 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const FILE = 'sierra-research__pr171-ironforge-v3-deepseek-airline.json';
const lines = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describeTau2('tau-inspect on τ² runs', () => {
  const data = () => join(TAU2_DIR, 'data');
  const expected = () =>
    JSON.parse(readFileSync(join(TAU2_DIR, 'expected', FILE.replace('.json', '.expected.json')), 'utf8')) as { simulations: Record<string, unknown>[] };

  it('evaluate --json: one line per simulation with τ²’s record fields, equal to τ²’s own', () => {
    const r = cli('evaluate', join(TAU2_DIR, 'runs', FILE), '--data', data(), '--json');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('domain: airline');
    const got = lines(r.out);
    const want = expected().simulations;
    expect(got).toHaveLength(want.length);
    got.forEach((g, i) => {
      for (const k of ['simulation_id', 'task_id', 'reward', 'db_match', 'db_hash']) expect(g[k], `${i} ${k}`).toEqual(want[i]![k]);
      expect((g.tool_calls as { output: string }[]).map((c) => c.output)).toEqual((want[i]!.tool_calls as { output: string }[]).map((c) => c.output));
      expect(Array.isArray(g.findings)).toBe(true);
    });
  });

  it('several τ² runs in one process: each line names its file, the verdicts are those of each run alone', () => {
    const other = 'sierra-research__pr170-e2e-mock-baseline.json';
    const r = cli('evaluate', join(TAU2_DIR, 'runs', FILE), join(TAU2_DIR, 'runs', other), '--data', data(), '--json');
    expect(r.code, r.err).toBe(0);
    const got = lines(r.out);
    const alone = [FILE, other].flatMap((f) =>
      lines(cli('evaluate', join(TAU2_DIR, 'runs', f), '--data', data(), '--json').out).map((l) => ({ file: f, ...l })),
    );
    expect(got).toEqual(alone);
    const mixed = cli('evaluate', join(TAU2_DIR, 'runs', FILE), join(root, 'sample-runs/runs/retail-sample.json'));
    expect(mixed.code).toBe(2);
    expect(mixed.err).toContain('several files are judged together only when all are τ²-bench runs');
  });

  it('a run folder (results.json + simulations/<id>.json) reads as the file does', () => {
    const run = JSON.parse(readFileSync(join(TAU2_DIR, 'runs', FILE), 'utf8')) as { simulations: { id: string }[] };
    const folder = join(dir, 'run');
    mkdirSync(join(folder, 'simulations'), { recursive: true });
    writeFileSync(join(folder, 'results.json'), JSON.stringify({ ...run, simulations: [] }));
    run.simulations.forEach((s, i) => writeFileSync(join(folder, 'simulations', `${String(i).padStart(3, '0')}-${s.id}.json`), JSON.stringify(s)));
    const a = cli('evaluate', folder, '--data', data(), '--json');
    const b = cli('evaluate', join(TAU2_DIR, 'runs', FILE), '--data', data(), '--json');
    expect(a.code, a.err).toBe(0);
    expect(lines(a.out).map((l) => [l.simulation_id, l.reward, l.db_hash])).toEqual(lines(b.out).map((l) => [l.simulation_id, l.reward, l.db_hash]));
  });

  it('a results file beside a simulations/ folder is that folder’s run ("dir" format, as τ²’s Results.load reads it), not a τ-bench file without episodes', () => {
    const run = JSON.parse(readFileSync(join(TAU2_DIR, 'runs', FILE), 'utf8')) as { simulations: { id: string }[] };
    const folder = join(dir, 'dir-format');
    mkdirSync(join(folder, 'simulations'), { recursive: true });
    const { simulations, ...meta } = run;
    writeFileSync(join(folder, 'meta.json'), JSON.stringify({ ...meta, simulation_index: simulations.map((s) => ({ id: s.id })) }));
    simulations.forEach((s) => writeFileSync(join(folder, 'simulations', `${s.id}.json`), JSON.stringify(s)));
    const b = cli('evaluate', join(TAU2_DIR, 'runs', FILE), '--data', data(), '--json');
    for (const extra of [['--json'], []]) {
      const a = cli('evaluate', join(folder, 'meta.json'), '--data', data(), ...extra);
      expect(a.code, a.err).toBe(0);
      // In the folder the simulations come in file-name order, as τ² reads them.
      const byId = (out: string) =>
        lines(out)
          .map((l) => [String(l.simulation_id), l.reward] as const)
          .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
      if (extra.length > 0) expect(byId(a.out)).toEqual(byId(b.out));
      else expect(a.out).toMatch(/average reward/);
    }
  });

  it('a damaged file: the damaged simulation is named with its line, every other one is judged as in the intact file', () => {
    const text = readFileSync(join(TAU2_DIR, 'runs', FILE), 'utf8');
    const at = text.indexOf('"messages"', text.indexOf('"simulations"')) + 30;
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, `${text.slice(0, at)}\u0001}{${text.slice(at)}`);
    const r = cli('evaluate', broken, '--data', data(), '--json');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/simulation 0 is damaged at line \d+ column \d+/);
    const intact = lines(cli('evaluate', join(TAU2_DIR, 'runs', FILE), '--data', data(), '--json').out);
    expect(lines(r.out)).toEqual(intact.slice(1));
  });

  it('compare: two τ² runs task by task; a τ² run beside a τ-bench run is refused', () => {
    const a = join(TAU2_DIR, 'runs', 'sierra-research__pr171-ironshell-gpt54-run1-airline.json');
    const b = join(TAU2_DIR, 'runs', 'sierra-research__pr171-ironshell-opus46-run1-airline.json');
    const r = cli('compare', a, b, '--data', data(), '--json');
    expect(r.code, r.err).toBe(0);
    const rows = lines(r.out) as { task_id: string; a: { trials: number; passes: number }; b: { trials: number; passes: number }; flip: string | null }[];
    const reward = (file: string, task: string) =>
      (
        JSON.parse(readFileSync(join(TAU2_DIR, 'expected', file.replace('.json', '.expected.json')), 'utf8')) as {
          simulations: { task_id: string; reward: number }[];
        }
      ).simulations.filter((s) => s.task_id === task);
    for (const row of rows) {
      const passes = reward('sierra-research__pr171-ironshell-gpt54-run1-airline.json', row.task_id).filter((s) => s.reward === 1).length;
      expect(row.a.passes, row.task_id).toBe(passes);
    }
    expect(rows.filter((x) => x.flip === 'gained').length).toBeGreaterThan(0);
    const mixed = cli('compare', a, join(root, 'sample-runs/runs/retail-sample.json'), '--data', data());
    expect(mixed.code).toBe(2);
    expect(mixed.err).toContain('cannot be compared task by task');
  });

  it('report: one HTML file, no script, failed simulations first with their dialogue, every text escaped', () => {
    const out = join(dir, 'r.html');
    const r = cli('report', join(TAU2_DIR, 'runs', FILE), '--data', data(), '-o', out);
    expect(r.code, r.err).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain("default-src 'none'");
    expect(html.match(/<section/g)).toHaveLength(3);
    expect(html).toContain('Reward = DB 0.0 × COMMUNICATE 1.0 = 0.0');
  });

  it('explain: the account down to the product; a table without --json', () => {
    const r = cli('explain', join(TAU2_DIR, 'runs', FILE), '--data', data(), '--episode', '1');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/Reward basis: DB, COMMUNICATE/);
    expect(r.out).toMatch(/Reward = DB 0\.0 × COMMUNICATE 1\.0 = 0\.0/);
    const t = cli('evaluate', join(TAU2_DIR, 'runs', FILE), '--data', data());
    expect(t.out).toMatch(/recomputed reward equals the recorded one for 4 of 4/);
  });

  it('a domain τ² does not have (a fork’s own) is refused by name (exit 2), never judged', () => {
    const run = JSON.parse(readFileSync(join(TAU2_DIR, 'runs', FILE), 'utf8')) as { info: { environment_info: { domain_name: string } } };
    run.info.environment_info.domain_name = 'airline-relaxed';
    const file = join(dir, 'fork.json');
    writeFileSync(file, JSON.stringify(run));
    const r = cli('evaluate', file, '--data', data(), '--json');
    expect(r.code).toBe(2);
    expect(r.err).toContain("'airline-relaxed' is not one of τ²'s domains");
    expect(r.out).toBe('');
  });

  it('telecom: the user’s device tools, solo mode; explain names the env assertions', () => {
    const r = cli('evaluate', join(TAU2_DIR, 'runs', 'sierra-research__gym-gpt-4.1-telecom-solo-1task.json'), '--data', data(), '--json');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('solo mode');
    const [line] = lines(r.out);
    const want = JSON.parse(readFileSync(join(TAU2_DIR, 'expected', 'sierra-research__gym-gpt-4.1-telecom-solo-1task.expected.json'), 'utf8')) as {
      simulations: Record<string, unknown>[];
    };
    expect(line!.db_hash).toEqual(want.simulations[0]!.db_hash);
    expect(line!.reward).toBe(want.simulations[0]!.reward);
  });
});
