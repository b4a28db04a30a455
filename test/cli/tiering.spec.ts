/**
 * Which runs the built CLI starts without TurboFan (src/cli/code-cache/tiering.ts): a short `evaluate` of τ² results
 * files only (each a results object, together at most 4 MB, one thread); a τ-bench list, a folder, a big input, `--jobs`
 * or another command keep V8's usual tiers. Only the speed differs, never the output (code-cache.spec and the CLI specs
 * run both kinds). And the flags each command is started with (`v8FlagsFor`: index's heap).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { INDEX_HEAP_FLAGS, shortTau2Run, v8FlagsFor } from '../../src/cli/code-cache/tiering';

const dir = mkdtempSync(join(tmpdir(), 'tiering-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

it('a short τ² evaluate only', () => {
  const tau2 = file('t.json', '  \n{"info": {}, "simulations": []}');
  const tau2b = file('u.json', '{"simulations": []}');
  const v1 = file('v.json', '[{"task_id": 0}]');
  const big = file('big.json', `{"x": "${'a'.repeat(4 * 1024 * 1024)}"}`);
  expect(shortTau2Run(['evaluate', tau2, '--data', dir, '--json'])).toBe(true);
  expect(shortTau2Run(['evaluate', tau2, tau2b, '--data', dir])).toBe(true);
  expect(shortTau2Run(['evaluate', tau2, v1, '--data', dir])).toBe(false);
  expect(shortTau2Run(['evaluate', v1, '--data', dir])).toBe(false);
  expect(shortTau2Run(['evaluate', big, '--data', dir])).toBe(false);
  expect(shortTau2Run(['evaluate', tau2, '--jobs', '2', '--data', dir])).toBe(false);
  expect(shortTau2Run(['evaluate', dir, '--data', dir])).toBe(false);
  expect(shortTau2Run(['evaluate', join(dir, 'missing.json')])).toBe(false);
  expect(shortTau2Run(['evaluate', '--data', dir])).toBe(false);
  expect(shortTau2Run(['explain', tau2, '--data', dir])).toBe(false);
  expect(shortTau2Run([])).toBe(false);
});

it('the flags each command runs with: index a tighter heap, a short τ² evaluate no TurboFan, the rest none', () => {
  const tau2 = file('w.json', '{"simulations": []}');
  const v1 = file('x.json', '[{"task_id": 0}]');
  expect(v8FlagsFor(['index', dir, '-o', join(dir, 'runs.parquet')])).toEqual(INDEX_HEAP_FLAGS);
  expect(INDEX_HEAP_FLAGS).toEqual(['--heap-growing-percent=100']);
  expect(v8FlagsFor(['evaluate', tau2, '--data', dir])).toEqual(['--no-turbofan']);
  expect(v8FlagsFor(['evaluate', v1, '--data', dir])).toEqual([]);
  expect(v8FlagsFor(['audit', dir])).toEqual([]);
});
