/**
 * The CLI on τ³ voice run folders (../shared/tau2/voice/runs): evaluate (JSON lines with each call's tick_id, the table
 * with the interaction metrics), explain (the merge behind each communicate check), report, index; and a voice
 * simulation that cannot be judged, said so and left out of the average.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliBundle } from '../support/cli-bundle';
import { requireShared, TAU2_DIR } from '../support/shared';

const VOICE = join(TAU2_DIR, 'voice');
const RUN = 'voice-gym-gpt-4.1-retail-s1';
let bundle = '';
let dir = '';
beforeAll(async () => {
  bundle = await cliBundle();
  dir = mkdtempSync(join(tmpdir(), 'tau2-voice-cli-'));
  return () => rmSync(dir, { recursive: true, force: true });
});
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [bundle, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const lines = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

interface Call {
  name: string;
  tick_id?: number;
  output: string | null;
}

if (!readdirSafe(join(VOICE, 'runs')).length)
  describe('tau-inspect on voice run folders', () => {
    (requireShared ? it : it.skip)('needs ../shared/tau2/voice', () => {
      throw new Error(`REQUIRE_SHARED=1: ${VOICE} is missing`);
    });
  });
else
  describe('tau-inspect on voice run folders', () => {
    const data = join(TAU2_DIR, 'data');
    const folder = join(VOICE, 'runs', RUN);
    const expected = () =>
      JSON.parse(readFileSync(join(VOICE, 'expected', `${RUN}.expected.json`), 'utf8')) as {
        simulations: { simulation_id: string; reward: number; tool_calls: Call[] }[];
      };

    it('evaluate --json: every line τ²’s verdict, every tool call with the tick_id τ² records', () => {
      const r = cli('evaluate', folder, '--data', data, '--json');
      expect(r.code, r.err).toBe(0);
      expect(r.err).toMatch(/^mode: every simulation is full duplex \(voice\), judged from their ticks/m);
      expect(r.err).toMatch(/^interaction metrics \(τ²'s, from the ticks of 48 simulations\): response latency /m);
      const got = new Map(lines(r.out).map((l) => [l.simulation_id as string, l]));
      const want = expected().simulations;
      expect(got.size).toBe(want.length);
      let calls = 0;
      for (const x of want) {
        const g = got.get(x.simulation_id)!;
        expect([g.reward, g.error]).toEqual([x.reward, null]);
        expect((g.tool_calls as Call[]).map((c) => [c.name, c.tick_id, c.output])).toEqual(x.tool_calls.map((c) => [c.name, c.tick_id, c.output]));
        calls += x.tool_calls.length;
      }
      expect(calls).toBeGreaterThan(100);
    });

    it('evaluate: the table judges every voice simulation, and gives the run’s interaction metrics', () => {
      const r = cli('evaluate', folder, '--data', data);
      expect(r.code, r.err).toBe(0);
      expect(r.out).not.toContain('not evaluable');
      expect(r.out).toMatch(/^48 simulations; average reward 0\.917 = 44\/48 .*recomputed reward equals the recorded one for 48 of 48$/m);
      expect(r.out).toMatch(/^interaction metrics \(τ²'s, from the ticks of 48 simulations\): .*yield rate 1\.000 of 12 interruptions/m);
    });

    it('explain: the merged message a communicate info was found in, the chunks it spans; a failed one’s nearest miss', () => {
      const order = lines(cli('evaluate', folder, '--data', data, '--json').out);
      const failed = order.findIndex((l) => l.simulation_id === 'c4ff3961-2d3c-1e3e-1176-6cad26514231');
      const f = cli('explain', folder, '--data', data, '--episode', String(failed));
      expect(f.code, f.err).toBe(0);
      expect(f.out).toContain("Communicate '829.43' (lower-cased, commas removed, in the agent's speech merged as τ² merges it");
      expect(f.out).toMatch(/nearest miss \((split-across-messages|space-between-utterances), ticks \d+/);
      const met = order.findIndex((l) => (l.communicate_checks as { met: boolean }[] | null)?.every((c) => c.met) === true);
      const m = cli('explain', folder, '--data', data, '--episode', String(met));
      expect(m.out).toMatch(/found in merged message \d+\n {3}merged message \d+ \(\d+ chunks?, ticks \d+–\d+\): .*\n {3}the info is in: tick \d+ '/);
    });

    it('report: failed voice simulations with the merged transcript by tick and each call at its tick', () => {
      const out = join(dir, 'voice.html');
      const r = cli('report', folder, '--data', data, '-o', out);
      expect(r.code, r.err).toBe(0);
      const html = readFileSync(out, 'utf8');
      expect(html).not.toMatch(/<script/i);
      // A section per failed simulation, and one per passed simulation with something the reward ignores (no dialogue).
      expect(html.match(/<h2>Simulation \d+: task \d+, reward 0\.0/g)).toHaveLength(4);
      expect(html.match(/<section/g)).toHaveLength(4 + (html.match(/<h2>Simulation \d+: task \d+, reward 1\.0/g)?.length ?? 0));
      expect(html.match(/A full-duplex \(voice\) simulation of \d+ ticks/g)).toHaveLength(4);
      expect(html).toMatch(/<span class="note">tick \d+, call<\/span>/);
      expect(html).toContain('interaction metrics (τ²&#39;s, from the ticks of 48 simulations)');
    });

    it('index: one row per voice simulation, judged, its steps its ticks', () => {
      const out = join(dir, 'rows.jsonl');
      const r = cli('index', join(VOICE, 'runs'), '--data', data, '--json', '-o', out);
      expect(r.code, r.err).toBe(0);
      const rows = lines(readFileSync(out, 'utf8'));
      expect(rows).toHaveLength(82);
      expect(rows.every((x) => x.error === null && typeof x.reward === 'number' && x.matches_recorded_reward === true)).toBe(true);
      const sim = JSON.parse(readFileSync(join(folder, 'simulations', '810be948-917b-83eb-6e08-5b259dc68e51.json'), 'utf8')) as { ticks: unknown[] };
      const row = rows.find(
        (x) => String(x.file).endsWith(RUN) && x.index === readdirSync(join(folder, 'simulations')).sort().indexOf('810be948-917b-83eb-6e08-5b259dc68e51.json'),
      );
      expect(row?.steps).toBe(sim.ticks.length);
    });

    it('a voice simulation without ticks: not evaluable, said why, left out of the average — never 0.0 ≠ recorded', () => {
      const copy = join(dir, 'no-ticks');
      cpSync(folder, copy, { recursive: true });
      const name = readdirSync(join(copy, 'simulations')).sort()[0]!;
      const path = join(copy, 'simulations', name);
      writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), ticks: null }));
      const r = cli('evaluate', copy, '--data', data);
      expect(r.code, r.err).toBe(0);
      const row = r.out.split('\n').find((l) => l.startsWith('0 '))!;
      expect(row).toMatch(
        / not evaluable +- +user_stop +TypeError: 'NoneType' object is not iterable — a full-duplex \(voice\) simulation that records no ticks/,
      );
      expect(row).not.toContain('≠');
      expect(r.out).toMatch(/^48 simulations, 1 not evaluable \(left out of the average\); average reward \d\.\d{3} = \d+\/47 .* for 47 of 47$/m);
      const j = lines(cli('evaluate', copy, '--data', data, '--json').out)[0]!;
      expect([j.matches_recorded_reward, j.error]).toEqual([null, expect.stringMatching(/^TypeError/)]);
    });
  });

function readdirSafe(p: string): string[] {
  try {
    return readdirSync(p);
  } catch {
    return [];
  }
}
