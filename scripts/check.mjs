// `npm run check`: every check (typecheck, lint, format, copy-paste, all specs), in two lanes at once so that
// both cores of a CI machine work. Each lane runs its steps one after the other; within each vitest run the
// spec files still run one at a time (vitest's default on two cores), so no spec shares a lane with another.
//   lane 1: typecheck, lint, format:check, cpd, then every spec outside test/browser (core + CLI)
//   lane 2: the browser specs (test/browser)
// The lanes take about as long as each other; test/browser is the exact complement of lane 1's specs.
// Both vitest runs share one cache folder (TAU_INSPECT_TEST_CACHE, see test/support/run-once.ts), so the app
// is built once and the shared runs indexed once for the whole check.
// Every step runs even when another failed; the status is 1 when any failed, and those are named at the end.
// A step's output is printed in one block when it ends (two live reports would interleave), with its time.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BROWSER_SPECS = 'test/browser/';
const npm = (script) => ({ name: `npm run ${script}`, command: 'npm', args: ['run', '--silent', script] });
const vitest = (name, ...args) => ({ name, command: process.execPath, args: ['node_modules/vitest/vitest.mjs', 'run', ...args] });

const LANES = [
  [npm('typecheck'), npm('lint'), npm('format:check'), npm('cpd'), vitest('specs (core, cli)', '--exclude', `${BROWSER_SPECS}**`)],
  [vitest('specs (browser)', BROWSER_SPECS)],
];

const cache = mkdtempSync(join(tmpdir(), 'tau-inspect-test-cache-'));
const env = { ...process.env, TAU_INSPECT_TEST_CACHE: cache };
const children = new Set();
const started = Date.now();
const seconds = (t) => `${((Date.now() - t) / 1000).toFixed(1)} s`;

function runStep(step) {
  return new Promise((done) => {
    const t = Date.now();
    const child = spawn(step.command, step.args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    const out = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => out.push(b));
    const finish = (ok, why) => {
      children.delete(child);
      const text = Buffer.concat(out).toString('utf8').trimEnd();
      process.stdout.write(`\n── ${step.name}: ${ok ? 'passed' : `FAILED (${why})`} in ${seconds(t)}\n${text === '' ? '' : `${text}\n`}`);
      done(ok);
    };
    child.on('error', (e) => finish(false, e.message));
    child.on('close', (code, signal) => finish(code === 0, signal ?? `exit ${code}`));
  });
}

async function runLane(steps) {
  const failed = [];
  for (const step of steps) if (!(await runStep(step))) failed.push(step.name);
  return failed;
}

function stop(signal) {
  for (const child of children) child.kill(signal);
  rmSync(cache, { recursive: true, force: true });
  process.exit(1);
}
process.once('SIGINT', () => stop('SIGINT'));
process.once('SIGTERM', () => stop('SIGTERM'));

try {
  const failed = (await Promise.all(LANES.map(runLane))).flat();
  process.stdout.write(`\n── check ${failed.length === 0 ? 'passed' : `FAILED: ${failed.join(', ')}`} in ${seconds(started)}\n`);
  process.exitCode = failed.length === 0 ? 0 : 1;
} finally {
  rmSync(cache, { recursive: true, force: true });
}
