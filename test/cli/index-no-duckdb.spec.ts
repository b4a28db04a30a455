/**
 * `tau-inspect index` where DuckDB cannot be loaded (the bundle run from a folder with no node_modules in reach): the
 * run fails with the reason, and leaves no temporary file beside the output it could not write (it left its rows' JSON
 * lines there before).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { cliBundle } from '../support/cli-bundle';
import { describeTau2, TAU2_DIR } from '../support/shared';

let dir = '';
let bundle = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'index-no-duckdb-'));
  const built = await cliBundle();
  // The entry and the body beside it, where `import('@duckdb/node-api')` finds nothing.
  for (const f of [built, built.replace(/\.mjs$/, '.body.cjs')]) copyFileSync(f, join(dir, basename(f)));
  bundle = join(dir, basename(built));
  return () => rmSync(dir, { recursive: true, force: true });
});

describeTau2('index without DuckDB', () => {
  it('fails saying so, and leaves no temporary file beside the output', () => {
    const out = join(dir, 'out', 'runs.parquet');
    const file = join(TAU2_DIR, 'runs', 'sierra-research__pr170-e2e-mock-baseline.json');
    const r = spawnSync(process.execPath, [bundle, 'index', file, '--data', join(TAU2_DIR, 'data'), '-o', out, '--no-cache'], { encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('@duckdb/node-api');
    expect(readdirSync(dirname(out)).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});
