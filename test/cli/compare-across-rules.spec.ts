/** `tau-inspect compare` of two runs judged by other data versions and rules says so and counts flips under one rule. */
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
const compare = (...args: string[]) => {
  const r = spawnSync(process.execPath, [bundle, 'compare', ...args, '--data', DATA_DIR], {
    encoding: 'utf8',
    cwd: root,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const run = (f: string): string => join(SHARED_DIR, 'runs', f);
/** With REQUIRE_SHARED=1 a missing ../shared fails these tests instead of skipping them. */
const noShared = !hasShared && process.env.REQUIRE_SHARED !== '1';

describe('tau-inspect compare across data versions and rules', () => {
  it.skipIf(noShared)(
    'gpt-4o-airline (7362a17, outputs-only) against grok-4-tool-calling-airline (14bf0ef, db-and-outputs): a warning, and flips under one rule',
    () => {
      const r = compare(run('gpt-4o-airline.json'), run('grok-4-tool-calling-airline.json'));
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain('warning: A and B were judged differently: data version 7362a17 (A) vs 14bf0ef (B); rule outputs-only (A) vs db-and-outputs (B)');
      expect(r.out).toMatch(
        /flips are counted with both runs judged by one rule: under db-and-outputs, \d+ now passed by B and \d+ no longer; under outputs-only, \d+ now passed by B and \d+ no longer/,
      );
      expect(r.out).toMatch(/^50 tasks; flipped \(both judged by outputs-only\): \d+ now passed by B, \d+ no longer passed by B$/m);
      const json = compare(run('gpt-4o-airline.json'), run('grok-4-tool-calling-airline.json'), '--json');
      expect(json.err).toContain('warning: A and B were judged differently');
      const rows = json.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { flip: string | null });
      const gained = Number(/under outputs-only, (\d+) now passed/.exec(r.out)![1]);
      expect(rows.filter((x) => x.flip === 'gained')).toHaveLength(gained);
    },
  );

  it.skipIf(noShared)('two runs judged alike: no warning', () => {
    const r = compare(run('grok-4-fast-act-airline.json'), run('grok-4-tool-calling-airline.json'));
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toContain('judged differently');
    expect(r.out).toMatch(/^\d+ tasks; flipped: \d+ now passed by B, \d+ no longer passed by B$/m);
  });
});
