/**
 * `tau-inspect report --notes` with notes made before fingerprints kept JSON's types (issue #35 class 4): a note
 * kept under a simulation's old fingerprint is shown on it when no other simulation had that fingerprint; when two
 * did (Infinity and "Infinity"), it is shown only where today's fingerprint is still the one, and the CLI says so.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportNotes, readTau2Text, tau2LegacyFingerprints, type EpisodeNotes } from '../../src/core/contract';
import { cliBundle } from '../support/cli-bundle';

const root = resolve(import.meta.dirname, '../..');
const sample = join(root, 'sample-runs/runs/tau2-mock-sample.json');
const data = join(root, 'sample-runs/tau2-data');

let bundle = '';
let dir = '';
beforeAll(async () => {
  bundle = await cliBundle();
  dir = mkdtempSync(join(tmpdir(), 'report-legacy-notes-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [bundle, ...args], { encoding: 'utf8', cwd: root, env: { ...process.env, TAU_BENCH_DATA: '', TAU2_DATA: '' } });
  return { code: r.status, err: r.stderr };
};

interface Sim {
  messages: { role: string; tool_calls?: { arguments: Record<string, unknown> }[] | null }[];
}

/** The sample with simulation 1's first call given `amount: Infinity`; `twin`: simulation 2 made the same with the string "Infinity". */
function runText(twin: boolean): string {
  const run = JSON.parse(readFileSync(sample, 'utf8')) as { simulations: Sim[] };
  const call = (s: Sim) => s.messages.find((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0)!.tool_calls![0]!;
  call(run.simulations[1]!).arguments.amount = '__INF__';
  if (twin) {
    run.simulations[2] = JSON.parse(JSON.stringify(run.simulations[1]));
    call(run.simulations[2]!).arguments.amount = 'Infinity';
  }
  return JSON.stringify(run).replace('"__INF__"', 'Infinity');
}

function report(twin: boolean): { err: string; html: string } {
  const text = runText(twin);
  const file = join(dir, `run-${twin}.json`);
  writeFileSync(file, text);
  const old = tau2LegacyFingerprints(readTau2Text(text)!, 1).at(-1)!;
  const note: EpisodeNotes = {
    fingerprint: old,
    label: 'agent error',
    note: 'kept before',
    steps: {},
    file: 'run.json',
    index: 1,
    taskId: null,
    updatedAt: '',
  };
  writeFileSync(join(dir, 'notes.json'), exportNotes('run.json', [note]));
  const out = join(dir, `r-${twin}.html`);
  const r = cli('report', file, '--data', data, '-o', out, '--notes', join(dir, 'notes.json'));
  expect(r.code, r.err).toBe(0);
  return { err: r.err, html: readFileSync(out, 'utf8') };
}

const section = (html: string, i: number): string => {
  const at = html.indexOf(`<section id="sim-${i}">`);
  return at < 0 ? '' : html.slice(at, html.indexOf('</section>', at));
};

describe('report --notes with notes under old-format fingerprints', () => {
  it('a note under the old fingerprint of the one simulation that had it is shown on it', () => {
    const { err, html } = report(false);
    expect(err).toContain('notes on 1 of 1 noted simulations found in this file');
    expect(section(html, 1)).toContain('kept before');
  });

  it('two simulations had it: shown only on the one whose fingerprint it still is, and said', () => {
    const { err, html } = report(true);
    expect(err).toContain(
      "notes on 1 of 1 noted simulations found in this file; 1 note made before fingerprints kept JSON's types could be on any of several simulations (#1 and #2)",
    );
    expect(section(html, 1)).not.toContain('kept before');
    expect(section(html, 2)).toContain('kept before');
  });
});
