/**
 * Issue 20 item 1 through the CLI: four forged recorded hashes (grok-4-tool-calling-retail.json,
 * episodes 0, 26, 69, 91 set to data 7362a17's reference hashes) change no data version, rule or
 * verdict; `evaluate` and `explain` say the counts and the minority. The forged file is made here.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { KNOWN_DATA_VERSIONS } from '../../src/core/model/data/versions';
import { forgeGtHashes } from '../support/forge-hashes';
import { DATA_DIR, describeShared, SHARED_DIR } from '../support/shared';
import { cliBundle, jsonLines } from '../support/cli-bundle';

const root = resolve(import.meta.dirname, '../..');

// The CLI bundled once per test run (as `npm run build:cli` ships it, test/support/cli-bundle.ts): each run is plain node, not tsx.
let bundle = '';
beforeAll(async () => {
  bundle = await cliBundle();
});
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [bundle, ...args], {
    encoding: 'utf8',
    cwd: root,
    maxBuffer: 1 << 28,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const FILE = 'grok-4-tool-calling-retail.json';
const FORGED = [0, 26, 69, 91];

interface Line {
  index: number;
  reward?: number;
  error?: string;
  data_commit?: string;
  findings?: { kind: string; text: string }[];
}
const lines = (out: string): Line[] => jsonLines<Line>(out);

describeShared('the CLI on a run with four forged recorded hashes', () => {
  let forged: string;
  beforeAll(() => {
    forged = join(mkdtempSync(join(tmpdir(), 'tau-inspect-forged-')), 'forged.json');
    writeFileSync(forged, forgeGtHashes(FILE, FORGED, KNOWN_DATA_VERSIONS[1]!.commit));
  });

  it('evaluate --json: the same data version, rule and verdicts as the real run; the counts on stderr; a finding on each forged episode', () => {
    const real = cli('evaluate', join(SHARED_DIR, 'runs', FILE), '--data', DATA_DIR, '--json');
    const fake = cli('evaluate', forged, '--data', DATA_DIR, '--json');
    expect(real.code, real.err).toBe(0);
    expect(fake.code, fake.err).toBe(0);
    const line = (err: string, key: string) => err.split('\n').find((l) => l.startsWith(`${key}: `))!;
    expect(line(fake.err, 'rule')).toBe(line(real.err, 'rule'));
    expect(line(fake.err, 'data')).toMatch(/^data: 14bf0ef5/);
    expect(line(fake.err, 'data')).toMatch(/72 of 76 recorded gt_data_hash values fit 14bf0ef; 4 fit 7362a17: episodes 0, 26, 69, 91/);
    expect(fake.err).toMatch(/note: 4 of 76 recorded gt_data_hash values are not reproduced by 14bf0ef/);
    const [r, f] = [lines(real.out), lines(fake.out)];
    expect(f.map((x) => [x.index, x.reward, x.error, x.data_commit])).toEqual(r.map((x) => [x.index, x.reward, x.error, x.data_commit]));
    expect(f.filter((x) => x.findings?.some((k) => k.kind === 'recorded-hash-minority')).map((x) => x.index)).toEqual(FORGED);
  });

  it('explain: the counts under the title, and the forged episode names its hash', () => {
    const r = cli('explain', forged, '--data', DATA_DIR, '--episode', '26');
    expect(r.code, r.err).toBe(0);
    expect(r.out.split('\n')[0]).toMatch(/^Episode 26 · task 26 · retail, data 14bf0ef, rule db-and-outputs$/);
    expect(r.out).toContain('Data version from every recorded hash: 72 of 76 recorded gt_data_hash values fit 14bf0ef; 4 fit 7362a17: episodes 0, 26, 69, 91');
    expect(r.out).toMatch(/\[recorded-hash-minority\]: this episode's recorded gt_data_hash is the reference hash on 7362a17 data/);
  });
});
