/** `tau-inspect explain`: blame by call (grok-4 retail episode 104) and near things said for a missing output (episode 16). */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIR, hasShared, SHARED_DIR } from '../support/shared';
import { cliBundle } from '../support/cli-bundle';

const root = resolve(import.meta.dirname, '../..');

// The CLI bundled once per test run (as `npm run build:cli` ships it, test/support/cli-bundle.ts): each run is plain node, not tsx.
let bundle = '';
beforeAll(async () => {
  bundle = await cliBundle();
});
const explain = (...args: string[]) => {
  const r = spawnSync(process.execPath, [bundle, 'explain', join(SHARED_DIR, 'runs', 'grok-4-tool-calling-retail.json'), '--data', DATA_DIR, ...args], {
    encoding: 'utf8',
    cwd: root,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
/** With REQUIRE_SHARED=1 a missing ../shared fails these tests instead of skipping them. */
const noShared = !hasShared && process.env.REQUIRE_SHARED !== '1';

describe('tau-inspect explain on grok-4-tool-calling-retail.json', () => {
  it.skipIf(noShared)('episode 104: each differing address field was last written by step 20, which wrote the value it already had', () => {
    const r = explain('--episode', '104');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('orders/#W4860251 differs: last written by step 21; last written by reference action 4');
    for (const [field, agent, reference] of [
      ['address.address2', 'Suite 995', 'Suite 892'],
      ['address.city', 'New York', 'Chicago'],
      ['address.state', 'NY', 'IL'],
      ['address.zip', '10034', '60612'],
    ])
      expect(r.out).toContain(`${field}: agent "${agent}", last written by step 20 · reference "${reference}", last written by reference action 3`);
    expect(r.out).not.toContain('no agent call touched it');
  });

  it.skipIf(noShared)('episode 16: the missing 8276.23 names the three amounts the agent said, and their step', () => {
    const r = explain('--episode', '16');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('"8276.23": the agent said the parts but never the sum (3131.10 + 4777.75 + 367.38 = 8276.23)');
    for (const n of ['3131.10', '4777.75', '367.38']) expect(r.out).toContain(`step 7: ${n} (part of the sum)`);
    const json = explain('--episode', '16', '--json');
    expect(JSON.parse(json.out).missing_outputs).toEqual([
      {
        output: '8276.23',
        near: ['3131.10', '4777.75', '367.38'].map((text) => ({ text, kind: 'part-of-sum', detail: '3131.10 + 4777.75 + 367.38 = 8276.23', step: 6 })),
      },
    ]);
  });
});
