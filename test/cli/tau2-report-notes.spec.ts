/** `tau-inspect report --notes` on a τ² run: a notes export from the app attaches to its simulations by fingerprint. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportNotes, readTau2Text, tau2Headers, type EpisodeNotes } from '../../src/core/contract';
import { cliBundle } from '../support/cli-bundle';

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
    env: { ...process.env, TAU_BENCH_DATA: '', TAU2_DATA: '' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const run = join(root, 'sample-runs/runs/tau2-mock-sample.json');
const data = join(root, 'sample-runs/tau2-data');

describe('tau-inspect report --notes on a τ² run', () => {
  it('shows each noted simulation’s label and note (escaped), says how many were found, and leaves other runs’ notes out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tau2-report-notes-'));
    try {
      const headers = tau2Headers(readTau2Text(readFileSync(run, 'utf8'))!);
      const note = (i: number, fingerprint: string, text: string): EpisodeNotes => ({
        fingerprint,
        label: 'task or annotation bug',
        note: text,
        steps: {},
        file: 'tau2-mock-sample.json',
        index: i,
        taskId: null,
        updatedAt: '',
      });
      writeFileSync(
        join(dir, 'notes.json'),
        exportNotes('tau2-mock-sample.json', [note(4, headers[4]!.fingerprint, '<i>never</i> said task_3'), note(0, 'e'.repeat(64), 'another run')]),
      );
      const out = join(dir, 'r.html');
      const r = cli('report', run, '--data', data, '-o', out, '--notes', join(dir, 'notes.json'));
      expect(r.code, r.err).toBe(0);
      expect(r.err).toContain('9 simulations');
      expect(r.err).toContain('notes on 1 of 2 noted simulations found in this file');
      const html = readFileSync(out, 'utf8');
      const sim4 = html.slice(html.indexOf('<section id="sim-4">'), html.indexOf('</section>', html.indexOf('<section id="sim-4">')));
      expect(sim4).toContain('&lt;i&gt;never&lt;/i&gt; said task_3');
      expect(sim4).toContain('label: <b>task or annotation bug</b>');
      expect(html).not.toContain('another run');
      expect(html).not.toContain('<i>');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
