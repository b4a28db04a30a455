// `npm run check`: every check (typecheck, lint, format, copy-paste, all specs) on two runners at once so that
// both cores of a CI machine work. The steps wait in one queue, longest first (times on the shared 2-core CI machine
// with both cores busy: browser specs ≈ 810 s with React's development build, about 30 % less since; units specs
// ≈ 400 s, CLI specs ≈ 150 s, both about a third less since their soak cases moved to `npm run soak`; typecheck
// ≈ 115 s, lint ≈ 70 s, format ≈ 30 s, cpd ≈ 5 s; typecheck, lint and format need about a third of that in CPU); each runner takes the next step as soon as its last one ends, so neither idles
// while a step waits, and they end within one step of each other unless one step outlasts all the rest. Within each vitest run
// the spec files run one at a time (vitest's default on two cores), so no spec shares a core with another spec.
// The three spec steps together run every gate spec, one vitest project each: `browser` (test/browser), `units`
// (test/core, store, worker, features, ui, app) and `cli` (test/cli); the `soak` project (test/soak, `npm run soak`)
// is not part of the check. They share one cache folder (TAU_INSPECT_TEST_CACHE, see test/support/run-once.ts), so the
// app is built once and the shared runs indexed once for the whole check, by whichever spec needs it first.
// Every step runs even when another failed; the status is 1 when any failed, and those are named at the end.
// A step's output is printed in one block when it ends (two live reports would interleave), with its time.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const npm = (script) => ({ name: `npm run ${script}`, command: 'npm', args: ['run', '--silent', script] });
const vitest = (name, ...args) => ({ name, command: process.execPath, args: ['node_modules/vitest/vitest.mjs', 'run', ...args] });

/** Longest first (see above). */
const QUEUE = [
  vitest('specs (browser)', '--project', 'browser'),
  vitest('specs (units)', '--project', 'units'),
  vitest('specs (cli)', '--project', 'cli'),
  npm('typecheck'),
  npm('lint'),
  npm('format:check'),
  npm('cpd'),
  npm('column'),
];
const RUNNERS = 2;

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

/** One runner: takes the next step of the queue until none is left; the names of those that failed. */
async function runner(queue) {
  const failed = [];
  for (let step = queue.shift(); step !== undefined; step = queue.shift()) if (!(await runStep(step))) failed.push(step.name);
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
  const queue = [...QUEUE];
  const failed = (await Promise.all(Array.from({ length: RUNNERS }, () => runner(queue)))).flat();
  process.stdout.write(`\n── check ${failed.length === 0 ? 'passed' : `FAILED: ${failed.join(', ')}`} in ${seconds(started)}\n`);
  process.exitCode = failed.length === 0 ? 0 : 1;
} finally {
  rmSync(cache, { recursive: true, force: true });
}
