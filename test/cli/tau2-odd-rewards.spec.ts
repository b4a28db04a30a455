/**
 * Red team of issue 20 item 6 on τ² files: a recorded reward of NaN, Infinity, 1e309, a str or a list. The v1
 * reader showed them as recorded and left them out of the recorded-reward comparison; the τ² reader
 * counted NaN and Infinity as recorded rewards that disagree (≠) and showed a str or a list as "-", as if
 * none was recorded. Each simulation's verdict stays the same as in the unmodified file.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { cliBundle, jsonLines } from '../support/cli-bundle';
import { describeTau2 } from '../support/shared';

const SAMPLE = resolve(import.meta.dirname, '../../sample-runs/runs/tau2-mock-sample.json');
/** The sample's own (invented) data: its recorded tool outputs are what this data answers (on other data a strict replay raises). */
const DATA = resolve(import.meta.dirname, '../../sample-runs/tau2-data');
const ODD: readonly [string, string][] = [
  ['NaN', 'NaN (not a number)'],
  ['Infinity', 'Infinity (not a number)'],
  ['1e309', 'Infinity (not a number)'],
  ['"1.0"', "'1.0' (a str, not a number)"],
  ['[1]', '[1] (a list, not a number)'],
];

let bundle = '';
beforeAll(async () => {
  bundle = await cliBundle();
});
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [bundle, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
interface Line {
  reward: number;
  recorded_reward: number | null;
  recorded_reward_text?: string;
  matches_recorded_reward: boolean | null;
  tau2_would_refuse: string | null;
  error: string | null;
}
const lines = (out: string): Line[] => jsonLines<Line>(out);

describeTau2('evaluate on a τ² file whose recorded rewards are not numbers', () => {
  let odd = '';
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'tau2-odd-'));
    const run = JSON.parse(readFileSync(SAMPLE, 'utf8')) as { simulations: unknown[] };
    const sims = run.simulations.map((s, i) => {
      const text = JSON.stringify(s);
      if (i >= ODD.length) return text;
      const out = text.replace(/"reward_info":\{"reward":[^,}]+/, `"reward_info":{"reward":${ODD[i]![0]}`);
      expect(out).not.toBe(text);
      return out;
    });
    odd = join(dir, 'odd.json');
    writeFileSync(odd, JSON.stringify({ ...run, simulations: [] }).replace('"simulations":[]', `"simulations":[${sims.join(',')}]`));
    return () => rmSync(dir, { recursive: true, force: true });
  });

  it('--json: no recorded reward, the value as written, no disagreement; each verdict as in the unmodified file', () => {
    const real = cli('evaluate', SAMPLE, '--data', DATA, '--json');
    const r = cli('evaluate', odd, '--data', DATA, '--json');
    expect(real.code, real.err).toBe(0);
    expect(r.code, r.err).toBe(0);
    const [a, b] = [lines(real.out), lines(r.out)];
    expect(b.map((x) => x.reward)).toEqual(a.map((x) => x.reward));
    expect(b.slice(0, ODD.length).map((x) => [x.recorded_reward, x.recorded_reward_text, x.matches_recorded_reward])).toEqual(
      ODD.map(([, shown]) => [null, shown, null]),
    );
    // The recorded reward [1] is one τ²'s RewardInfo refuses (NaN, Infinity and "1.0" it reads): τ² loads none of the file, so
    // every verdict is marked with it; no verdict reads a recorded reward, so each stands.
    const refused = 'simulations.4.reward_info.reward: Input should be a valid number [type=float_type, input_value=[1], input_type=list]';
    expect(b.filter((x) => x.error === null).length).toBeGreaterThan(ODD.length);
    expect(b.map((x) => x.tau2_would_refuse)).toEqual(b.map((x) => (x.error === null ? refused : null)));
    expect(a.map((x) => x.tau2_would_refuse)).toEqual(a.map(() => null));
    const unmarked = (xs: Line[]) => xs.map((x) => ({ ...x, tau2_would_refuse: null }));
    expect(unmarked(b.slice(ODD.length))).toEqual(unmarked(a.slice(ODD.length)));
  });

  it('the table shows what was recorded and compares only the numbers', () => {
    const r = cli('evaluate', odd, '--data', DATA);
    expect(r.code, r.err).toBe(0);
    for (const [, shown] of ODD) expect(r.out).toContain(shown);
    // No recomputed reward disagrees, and the odd recorded ones are compared with nothing.
    expect(r.out.split('\n').filter((l) => l.includes('≠'))).toEqual([]);
    expect(r.out).toMatch(/^9 simulations; average reward 0\.333 = 3\/9 /m);
    expect(r.out).toMatch(/recomputed reward equals the recorded one for 4 of 4$/m);
  });
});
