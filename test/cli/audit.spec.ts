/**
 * `tau-inspect audit --json` over the library the browser specs open (three τ-bench runs, four τ² runs) lists the
 * same findings as the app's audit: core's `auditTasks` over that library's runs.parquet as the app's worker reads it.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { auditTasks } from '../../src/core/contract';
import { readLibraryParquet } from '../../src/worker/library/parquet';
import { INDEX_DATA, INDEXED_DIRS, libraryRunsIndex } from '../support/runs-index';
import { describeShared } from '../support/shared';

const ROOT = resolve(import.meta.dirname, '../..');

function audit(cwd: string, ...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, ['--import', join(ROOT, 'node_modules/tsx/dist/esm/index.mjs'), join(ROOT, 'src/cli/tau-inspect.ts'), 'audit', ...args], {
      cwd,
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    p.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    p.on('error', fail);
    p.on('close', (code) => done({ code, out, err }));
  });
}

describeShared('tau-inspect audit', () => {
  let lib = '';
  beforeAll(async () => {
    lib = (await libraryRunsIndex()).lib;
  }, 600_000);

  it('lists the findings the app lists over the same library, each with a simulation that shows it', async () => {
    const r = await audit(lib, ...INDEXED_DIRS, ...INDEX_DATA(), '--json');
    expect(r.code, r.err).toBe(0);
    const cli = JSON.parse(r.out) as { findings: { kind: string; example: { file: string; index: number } }[]; bad_files: unknown[] };
    const app = auditTasks(await readLibraryParquet(new Uint8Array(await import('node:fs').then((fs) => fs.readFileSync(join(lib, 'runs.parquet'))))));
    expect(cli.findings).toEqual(
      app.map((f) => ({
        kind: f.kind,
        benchmark: f.benchmark,
        domain: f.domain,
        task: f.task,
        runs: f.runs,
        showing: f.showing,
        example: { file: f.example.file, index: f.example.index },
      })),
    );
    const kinds = new Set(cli.findings.map((f) => f.kind));
    // τ² airline has references that change nothing (#384's refusal tasks) and tasks no run passes.
    expect(kinds).toContain('gold-no-op');
    expect(kinds).toContain('no-run-passes');
    const text = await audit(lib, ...INDEXED_DIRS, ...INDEX_DATA());
    expect(text.out).toMatch(new RegExp(`^${cli.findings.length} findings over 7 runs`, 'm'));
  }, 600_000);
});
