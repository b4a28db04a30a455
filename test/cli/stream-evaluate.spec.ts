/**
 * Issue 20 item 7 through the CLI: `evaluate --json` reads its input as it arrives and prints each
 * episode's line as soon as it is judged. The input is a FIFO fed part of the file and then held open:
 * the first line must come meanwhile. A data version chosen from the first episodes' recorded hashes and
 * overturned by the rest re-judges every episode: the lines printed under it are printed again with
 * `"revised": true`, and stderr says so. The last line of each episode is what `evaluateAll` gives.
 */
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { inertJson } from '../../src/core/view/inert-json';
import { KNOWN_DATA_VERSIONS } from '../../src/core/model/data/versions';
import { scanList } from '../../src/core/py/json-parse';
import { InspectSession } from '../../src/core/session/session';
import { chooseDataFrom } from '../../src/cli/open-session';
import { prepareSha256 } from '../../src/core/py/sha256';
import { evaluatedSharedRun } from '../support/fixtures';
import { forgeGtHashes } from '../support/forge-hashes';
import { DATA_DIR, describeShared, SHARED_DIR } from '../support/shared';
import { cliBundle } from '../support/cli-bundle';
import { POOL_MIN_BYTES } from '../../src/cli/stream-evaluate';

const root = resolve(import.meta.dirname, '../..');

// The CLI bundled once per test run (as `npm run build:cli` ships it, test/support/cli-bundle.ts): each run is plain node, not tsx.
let bundle = '';
beforeAll(async () => {
  bundle = await cliBundle();
});
const HISTORICAL = KNOWN_DATA_VERSIONS[1]!.commit;

interface Run {
  /** Standard output so far, and when (ms after the start) each chunk of it came. */
  out: string;
  err: string;
  readonly done: Promise<number | null>;
  readonly exited: () => boolean;
}

/** `evaluate FIFO --json`, its input written by `feed` (the FIFO is opened for writing at once). */
function evaluateFifo(dir: string): { run: Run; input: NodeJS.WritableStream } {
  const fifo = join(dir, `run-${Math.random().toString(36).slice(2)}.fifo`);
  execFileSync('mkfifo', [fifo]);
  const child = spawn(process.execPath, [bundle, 'evaluate', fifo, '--data', DATA_DIR, '--json'], {
    cwd: root,
    env: { ...process.env, TAU_BENCH_DATA: '' },
  });
  let exited = false;
  const run: Run = {
    out: '',
    err: '',
    done: new Promise((ok) => child.on('exit', (code) => ((exited = true), ok(code)))),
    exited: () => exited,
  };
  child.stdout.on('data', (d: Buffer) => (run.out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (run.err += d.toString()));
  return { run, input: createWriteStream(fifo) };
}

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((ok) => setTimeout(ok, 50));
}

const lines = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { index: number; revised?: boolean });

/** The last line printed for each index, without the `revised` mark, as JSON text. */
function finalLines(out: string): string[] {
  const last = new Map<number, string>();
  for (const l of lines(out)) {
    const { revised: _, ...rest } = l;
    last.set(l.index, inertJson(rest));
  }
  return [...last.keys()].sort((a, b) => a - b).map((i) => last.get(i)!);
}

/** What `evaluate --json` printed before it streamed: `evaluateAll` on the whole file, every hash weighed first. */
async function evaluateAllLines(text: string): Promise<string[]> {
  await prepareSha256();
  const s = InspectSession.fromBytes(new TextEncoder().encode(text), {}, undefined, { keptEvaluations: 64 });
  await chooseDataFrom(s, DATA_DIR);
  return s.evaluateAll((r) => inertJson(JSON.parse(inertJson(r)) as object));
}

/** Where episode `n` of a results list ends (a byte offset of the UTF-8 text). */
function endOfEpisode(text: string, n: number): number {
  const scan = scanList(
    text,
    () => true,
    /\{/,
    (_v, _i, _start, end) => end,
  )!;
  const item = scan.items[n]!;
  return Buffer.byteLength(text.slice(0, item.ok ? item.value : item.end));
}

describeShared('evaluate --json reads its input as it arrives (issue 20 item 7)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tau-inspect-stream-'));
  });

  it('prints a first line while its input (a FIFO fed half the file) is still open, and in the end what evaluateAll gives', async () => {
    const text = readFileSync(join(SHARED_DIR, 'runs', 'gpt-4o-airline.json'), 'utf8');
    const bytes = Buffer.from(text);
    const { run, input } = evaluateFifo(dir);
    input.write(bytes.subarray(0, bytes.length >> 1));
    await until(() => run.out.includes('\n') || run.exited(), 120_000);
    expect(run.exited(), run.err).toBe(false);
    expect(lines(run.out.slice(0, run.out.indexOf('\n') + 1))[0]!.index).toBe(0);
    input.end(bytes.subarray(bytes.length >> 1));
    expect(await run.done, run.err).toBe(0);
    // Nothing was printed twice, and every line is the one evaluateAll makes, in file order.
    expect(lines(run.out).some((l) => l.revised)).toBe(false);
    expect(run.out.trim().split('\n')).toEqual(await evaluateAllLines(text));
    expect(run.err).not.toMatch(/revised/);
  }, 300_000);

  it('a data version chosen from the first episodes and overturned by the rest: every line printed again, marked and said', async () => {
    // The recorded hashes of episodes 0–29 set to 7362a17's reference hashes: a sample of them points there;
    // the rest (most of the file's 76 recorded hashes) fit 14bf0ef.
    const recorded = evaluatedSharedRun('grok-4-tool-calling-retail.json')
      .outcomes.filter((o) => o.ok && o.value.recordedGtHash !== null)
      .map((o) => (o.ok ? o.value.record.index : -1));
    const forged = recorded.filter((i) => i < 30);
    expect(forged.length * 2).toBeLessThan(recorded.length);
    const text = forgeGtHashes('grok-4-tool-calling-retail.json', forged, HISTORICAL);
    const bytes = Buffer.from(text);
    const cut = endOfEpisode(text, 29) + 1;
    const { run, input } = evaluateFifo(dir);
    input.write(bytes.subarray(0, cut));
    await until(() => run.out.includes('\n') || run.exited(), 120_000);
    expect(run.exited(), run.err).toBe(false);
    const early = lines(run.out.slice(0, run.out.lastIndexOf('\n') + 1));
    expect(early.length).toBeGreaterThan(0);
    expect(early.every((l) => l.index < 30 && !l.revised)).toBe(true);
    input.end(bytes.subarray(cut));
    expect(await run.done, run.err).toBe(0);
    const all = lines(run.out);
    const printedFirst = new Set(all.filter((l) => !l.revised).map((l) => l.index));
    const revised = all.filter((l) => l.revised).map((l) => l.index);
    // Every line printed under the overturned version is printed again, once.
    expect(revised.length).toBeGreaterThan(0);
    expect(new Set(revised).size).toBe(revised.length);
    for (const i of early.map((l) => l.index)) expect(revised).toContain(i);
    expect(revised.every((i) => printedFirst.has(i))).toBe(true);
    expect(run.err).toMatch(new RegExp(`note: ${revised.length} episodes were printed again, marked "revised": true`));
    expect(run.err).toMatch(/overturns 7362a17, chosen at first from a sample of recorded hashes/);
    expect(finalLines(run.out)).toEqual(await evaluateAllLines(text));
  }, 300_000);
});

describeShared('evaluate --json --jobs N: judged on worker threads, the same lines in the same order (issue 36)', () => {
  /** `evaluate FILE --json --jobs N`: standard output and error. */
  const evaluateJobs = (file: string, jobs: number): { out: string; err: string } => {
    const r = spawnSync(process.execPath, [bundle, 'evaluate', file, '--data', DATA_DIR, '--json', '--jobs', String(jobs)], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      env: { ...process.env, TAU_BENCH_DATA: '' },
    });
    expect(r.status, r.stderr).toBe(0);
    return { out: r.stdout, err: r.stderr };
  };

  it('a file whose minority of recorded hashes gets findings, and a synthetic one: --jobs 3 prints byte for byte what --jobs 1 does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tau-inspect-jobs-'));
    // Episodes 0–9's recorded hashes forged to another version's: a minority the file's other episodes name (a finding in their lines).
    const forged = join(dir, 'forged.json');
    writeFileSync(forged, forgeGtHashes('grok-4-tool-calling-retail.json', [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], HISTORICAL));
    const synthetic = join(SHARED_DIR, 'runs', 'synthetic-retail-test-outputs-wrong+outputs-comma+outputs-beside-toolcall+unknown-tool-s1.json');
    for (const file of [forged, synthetic]) {
      // Both are over the size from which the workers judge.
      expect(statSync(file).size).toBeGreaterThanOrEqual(POOL_MIN_BYTES);
      const one = evaluateJobs(file, 1);
      const three = evaluateJobs(file, 3);
      expect(three.out).toBe(one.out);
      expect(three.err).toBe(one.err);
      expect(one.out.trim().split('\n').length).toBeGreaterThan(100);
    }
    expect(readFileSync(forged, 'utf8')).toMatch(/"gt_data_hash"/);
  }, 300_000);
});
