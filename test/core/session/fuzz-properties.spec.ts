import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportNotes, hasContent, NOTE_LABELS, parseNotesExport, type EpisodeNotes, type StepEdit } from '../../../src/core/contract';
import { EvalCache } from '../../../src/core/judge/cache';
import { EvaluationSetupError } from '../../../src/core/judge/detect';
import { loadDataVersions, type DataVersion } from '../../../src/core/model/data/versions';
import { ResultsFileError } from '../../../src/core/model/episode/results-file';
import { readTau2Text, Tau2FileError } from '../../../src/core/model/episode/tau2/results';
import type { Tau2Run } from '../../../src/core/model/episode/tau2/types';
import { Tau2Session } from '../../../src/core/session/tau2/session';
import { jsonDumps } from '../../../src/core/py/json-dumps';
import { parseJson } from '../../../src/core/py/json-parse';
import type { PyValue } from '../../../src/core/py/value';
import { InspectSession } from '../../../src/core/session/session';
import { readShareContext, type ShareContext } from '../../../src/protocol/share-context';
import { decodeEdits, encodeEdits, parseLink } from '../../../src/store/link';
import { decodeSharedEpisode, sharePayload, splitSharedText } from '../../../src/worker/shared-episode';

/**
 * Property-based fuzzing (fast-check, seeded: a failure prints its seed and path and replays):
 * the v1 results reader (values replaced anywhere in an episode, bytes spliced into it), τ²'s
 * `readTau2Text`, the notes import parser and the link decoders. Nothing throws past the boundary
 * but the boundary's own error; every refusal and every per-episode error is a sentence; no
 * episode the mutation did not touch changes its verdict. Runs on the bundled sample run (no
 * ../shared needed) and prints how many cases it generated.
 */
const SEED = 0x20c0ffee;
const root = resolve(import.meta.dirname, '../../..');
let cases = 0;
const counted =
  <A extends unknown[]>(f: (...a: A) => void) =>
  (...a: A): void => {
    cases++;
    f(...a);
  };
afterAll(() => {
  console.log(`fuzz-properties: ${cases} generated cases (seed ${SEED})`);
});
const run = <T>(arb: fc.Arbitrary<T>, numRuns: number, check: (v: T) => void): void =>
  fc.assert(fc.property(arb, counted(check)), { seed: SEED, numRuns, endOnFailure: true });

/** A sentence: words, not a stack, not a stringified object. */
function expectSentence(s: unknown, what: string): void {
  expect(typeof s, what).toBe('string');
  const t = s as string;
  expect(t.trim().length, `${what}: ${t}`).toBeGreaterThanOrEqual(8);
  expect(t, what).toMatch(/[a-z]{2,}/i);
  expect(t, what).not.toMatch(/\bundefined\b|\[object \w+\]|\n\s+at |^\s*$/);
}

// ---------------------------------------------------------------- the v1 results reader

const sampleEpisodes = parseJson(readFileSync(join(root, 'sample-runs/runs/retail-sample.json'), 'utf8')) as PyValue[];
let versions: DataVersion[];
const cache = new EvalCache();
beforeAll(async () => {
  const read = async (rel: string): Promise<string | null> => readFile(join(root, 'sample-runs/data', rel), 'utf8').catch(() => null);
  versions = await loadDataVersions(read, 'retail', 'sample-runs/data', (db) => cache.hash(db));
});

type Judged = { refused: string } | { reports: string[]; errors: (string | undefined)[]; notes: readonly string[] };

function judge(text: string): Judged {
  let session: InspectSession;
  try {
    session = InspectSession.fromBytes(new TextEncoder().encode(text), {}, cache, { keptEvaluations: 4 });
    session.useData(versions);
  } catch (e) {
    if (e instanceof ResultsFileError || e instanceof EvaluationSetupError) return { refused: e.message };
    throw e;
  }
  const reports = session.evaluateAll();
  return { reports: reports.map((r) => JSON.stringify(r)), errors: reports.map((r) => r.error), notes: session.detection().notes };
}

/** Three consecutive sample episodes as Python's json.dumps writes them, and the verdicts of the file as it is. */
const subFiles = new Map<number, { texts: string[]; baseline: string[] }>();
function subFile(k: number): { texts: string[]; baseline: string[] } {
  let f = subFiles.get(k);
  if (!f) {
    const texts = sampleEpisodes.slice(k, k + 3).map(jsonDumps);
    const b = judge(`[${texts.join(', ')}]`);
    if ('refused' in b) throw new Error(`baseline refused: ${b.refused}`);
    f = { texts, baseline: b.reports };
    subFiles.set(k, f);
  }
  return f;
}

/** Every path into a value (dict keys and list positions), the value itself excluded. */
function paths(v: PyValue, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (at.length >= 7) return out;
  const step = (k: string | number, x: PyValue): void => {
    out.push([...at, k]);
    paths(x, [...at, k], out);
  };
  if (v instanceof Map) for (const [k, x] of v) step(k, x);
  else if (Array.isArray(v)) v.forEach((x, i) => step(i, x));
  return out;
}

function replaced(v: PyValue, path: readonly (string | number)[], by: PyValue): PyValue {
  if (path.length === 0) return by;
  const [h, ...rest] = path;
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, k === h ? replaced(x, rest, by) : x]));
  if (Array.isArray(v)) return v.map((x, i) => (i === h ? replaced(x, rest, by) : x));
  return v;
}

const PLACEHOLDER = '\u0000fuzz\u0000';
/** JSON text of any kind, as a file may hold it: fast-check's JSON, Python's NaN and Infinity, huge and deep values, odd strings. */
const fragment = fc.oneof(
  fc.json({ depthSize: 'small' }),
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e999', '-0.0', '{"__proto__": {"polluted": 1}, "constructor": {"prototype": 1}}', '"__proto__"'),
  fc.constantFrom('9'.repeat(4301), `${'['.repeat(2000)}${']'.repeat(2000)}`),
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => JSON.stringify(s)),
);

describe('fuzz: v1 results files (fast-check)', () => {
  it('a value replaced anywhere in one episode: nothing thrown, every other episode judged as before, every error a sentence', () => {
    run(fc.record({ k: fc.nat(sampleEpisodes.length - 3), j: fc.nat(2), pick: fc.nat(), text: fragment }), 250, ({ k, j, pick, text }) => {
      const f = subFile(k);
      const episode = parseJson(f.texts[j]!) as PyValue;
      const ps = paths(episode);
      const path = ps[pick % ps.length]!;
      const mutated = jsonDumps(replaced(episode, path, PLACEHOLDER)).replace(jsonDumps(PLACEHOLDER), text);
      const out = judge(`[${f.texts.map((t, i) => (i === j ? mutated : t)).join(', ')}]`);
      if ('refused' in out) {
        expect(j, `refused: ${out.refused}`).toBe(0);
        expectSentence(out.refused, 'refusal');
        return;
      }
      f.baseline.forEach((want, i) => {
        if (i !== j) expect(out.reports[i], `episode ${i} after ${path.join('..')} := ${text.slice(0, 60)}`).toBe(want);
      });
      for (const e of out.errors) if (e !== undefined) expectSentence(e, 'episode error');
      for (const n of out.notes) expectSentence(n, 'note');
    });
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('bytes spliced into one episode: nothing thrown, the episodes before it judged as before, every refusal a sentence', () => {
    run(
      fc.record({ k: fc.nat(sampleEpisodes.length - 3), j: fc.nat(2), at: fc.nat(), del: fc.nat(6), ins: fc.string({ unit: 'binary', maxLength: 6 }) }),
      150,
      ({ k, j, at, del, ins }) => {
        const f = subFile(k);
        const t = f.texts[j]!;
        const p = 1 + (at % (t.length - 2));
        const mutated = t.slice(0, p) + ins + t.slice(p + del);
        const out = judge(`[${f.texts.map((x, i) => (i === j ? mutated : x)).join(', ')}]`);
        if ('refused' in out) {
          expect(j, `refused: ${out.refused}`).toBe(0);
          expectSentence(out.refused, 'refusal');
          return;
        }
        for (let i = 0; i < j; i++) expect(out.reports[i], `episode ${i}`).toBe(f.baseline[i]);
        for (const e of out.errors) if (e !== undefined) expectSentence(e, 'episode error');
      },
    );
  });
});

// ---------------------------------------------------------------- τ²'s reader

/** A small τ² results file, written here (three tasks, three simulations). */
function tau2Parts(): { head: string; sims: string[] } {
  const task = (i: number) => ({
    id: String(i),
    user_scenario: { instructions: `task ${i}` },
    initial_state: null,
    evaluation_criteria: { actions: [{ action_id: `${i}_0`, requestor: 'assistant', name: 'get_user', arguments: { id: `u${i}` } }], reward_basis: ['DB'] },
  });
  const sim = (i: number) => ({
    id: `sim-${i}`,
    task_id: String(i),
    trial: 0,
    termination_reason: 'user_stop',
    messages: [
      { role: 'user', content: `hello ${i}` },
      { role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, name: 'get_user', arguments: { id: `u${i}` }, requestor: 'assistant' }] },
      { role: 'tool', id: `c${i}`, content: '{"name": "x"}', requestor: 'assistant', error: false },
      { role: 'assistant', content: 'done' },
    ],
    reward_info: { reward: 1.0, reward_breakdown: { DB: 1.0 } },
  });
  const head = `{"timestamp": "2026-01-01", "info": {"environment_info": {"domain_name": "mock"}}, "tasks": ${JSON.stringify([0, 1, 2].map(task))}, "simulations": [`;
  return { head, sims: [0, 1, 2].map((i) => JSON.stringify(sim(i))) };
}

/** What the reader kept of a simulation, as comparable text. */
const simDigest = (s: unknown): string =>
  JSON.stringify(s, (_k, v: unknown) =>
    v instanceof Map ? [...v] : typeof v === 'bigint' ? `${v}n` : typeof v === 'number' && !Number.isFinite(v) ? String(v) : v,
  );

describe('fuzz: τ² results files (fast-check)', () => {
  const { head, sims } = tau2Parts();
  const file = (s: readonly string[]): string => `${head}${s.join(', ')}]}`;
  const base = readTau2Text(file(sims))!;

  it('the file as written reads three simulations', () => {
    expect(base.simulations.map((s) => s.id)).toEqual(['sim-0', 'sim-1', 'sim-2']);
  });

  it('a value replaced or bytes spliced in one simulation: only Tau2FileError, in words; the other simulations read as before', () => {
    run(
      fc.record({ j: fc.nat(2), pick: fc.nat(), text: fragment, splice: fc.boolean(), ins: fc.string({ unit: 'binary', maxLength: 6 }), del: fc.nat(6) }),
      200,
      ({ j, pick, text, splice, ins, del }) => {
        const sim = sims[j]!;
        let mutated: string;
        if (splice) {
          const p = 1 + (pick % (sim.length - 2));
          mutated = sim.slice(0, p) + ins + sim.slice(p + del);
        } else {
          const v = parseJson(sim) as PyValue;
          const ps = paths(v);
          mutated = jsonDumps(replaced(v, ps[pick % ps.length]!, PLACEHOLDER)).replace(jsonDumps(PLACEHOLDER), text);
        }
        let r: ReturnType<typeof readTau2Text>;
        try {
          r = readTau2Text(file(sims.map((s, i) => (i === j ? mutated : s))));
        } catch (e) {
          expect(e, String(e)).toBeInstanceOf(Tau2FileError);
          expectSentence((e as Error).message, 'refusal');
          return;
        }
        expect(r).not.toBeNull();
        for (const n of r!.notes) expectSentence(n, 'note');
        if (!splice) {
          // Valid JSON: every other simulation is read exactly as before.
          for (const i of [0, 1, 2].filter((i) => i !== j)) expect(simDigest(r!.simulations.find((s) => s.index === i))).toBe(simDigest(base.simulations[i]));
        } else {
          for (let i = 0; i < j; i++) expect(simDigest(r!.simulations.find((s) => s.index === i))).toBe(simDigest(base.simulations[i]));
        }
      },
    );
  });
});

// ---------------------------------------------------------------- τ² judged: task parts, message and simulation fields, ticks

/**
 * The mock sample judged after one τ²-shaped mutation of a task part, a message field or a simulation field (ticks
 * among them): nothing thrown past the reader's own error; no verdict where τ²'s models refuse a part the verdict
 * reads (the mutated task's criteria or initial state, the mutated simulation's read fields); every simulation the
 * mutation did not touch keeps its verdict (a file-level "τ² would refuse" mark aside). Counted on their own: at least
 * 1,000 cases a run.
 */
let tau2Cases = 0;
const TAU2_MIN_CASES = 1000;
/** How many cases made a touched simulation not evaluable for a part τ² refuses, marked one, and left it judged unmarked: none may be 0. */
const tau2Seen = { unreadable: 0, marked: 0, judged: 0 };
afterAll(() => {
  console.log(`fuzz-properties: ${tau2Cases} generated τ² cases (seed ${SEED})`);
});

/** Values τ²'s fields meet: fast-check's JSON, τ²-shaped parts (calls, assertions, messages, ticks), wrong types. */
const tau2Value: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ depthSize: 'small' }),
  fc.constantFrom(
    null,
    'x',
    '3',
    3,
    3.5,
    true,
    [],
    {},
    ['DB'],
    ['DB', 'NL_ASSERTION'],
    ['task_1'],
    [{ action_id: 'a', name: 'update_task_status', arguments: { task_id: 'task_1', status: 'completed' } }],
    [{ env_type: 'assistant', func_name: 'has_tool', arguments: { tool_name: 'create_task' } }],
    [{ env_type: 'assistant', func_name: 'assert_task_status', arguments: { task_id: 'task_1', expected_status: 'completed' }, assert_value: 'false' }],
    [{ env_type: 'user', func_name: '__proto__', arguments: {} }],
    { initialization_actions: [{ env_type: 'assistant', func_name: 'update_db', arguments: { update_data: {} } }] },
    { initialization_data: { agent_data: { tasks: {} } } },
    [{ id: 'c', name: 'constructor', arguments: {}, requestor: 'assistant' }],
    [{ role: 'assistant', content: 'hi' }],
    [{ tick_id: 0, timestamp: 't' }],
    [{ tick_id: 'x' }],
    { reward: 1, nl_assertions: [{ nl_assertion: 'x', met: 'yes', justification: 'j' }] },
    'user_stop',
    'agent_error',
    'full_duplex',
  ),
);

const TASK_PATHS: readonly string[][] = [
  ['evaluation_criteria'],
  ['evaluation_criteria', 'actions'],
  ['evaluation_criteria', 'actions', '0'],
  ['evaluation_criteria', 'actions', '0', 'arguments'],
  ['evaluation_criteria', 'actions', '0', 'name'],
  ['evaluation_criteria', 'actions', '0', 'compare_args'],
  ['evaluation_criteria', 'env_assertions'],
  ['evaluation_criteria', 'env_assertions', '0', 'func_name'],
  ['evaluation_criteria', 'env_assertions', '0', 'assert_value'],
  ['evaluation_criteria', 'communicate_info'],
  ['evaluation_criteria', 'nl_assertions'],
  ['evaluation_criteria', 'reward_basis'],
  ['initial_state'],
  ['initial_state', 'initialization_actions'],
  ['initial_state', 'initialization_data'],
  ['initial_state', 'message_history'],
  ['user_scenario'],
  ['description'],
  ['issues'],
  ['required_documents'],
  ['id'],
];
const MESSAGE_FIELDS = ['role', 'content', 'tool_calls', 'turn_idx', 'cost', 'usage', 'timestamp', 'id', 'requestor', 'error', 'is_audio', 'tool_messages'];
const CALL_FIELDS = ['id', 'name', 'arguments', 'requestor'];
const SIMULATION_FIELDS = [
  'task_id',
  'termination_reason',
  'reward_info',
  'messages',
  'ticks',
  'mode',
  'trial',
  'duration',
  'seed',
  'review',
  'agent_cost',
  'id',
  'start_time',
];

const tau2Sample = JSON.parse(readFileSync(join(root, 'sample-runs/runs/tau2-mock-sample.json'), 'utf8')) as {
  tasks: Record<string, unknown>[];
  simulations: Record<string, unknown>[];
};
const tau2Dbs = new Map();
const tau2SampleRead = async (rel: string): Promise<string | null> => {
  for (const r of [rel, rel.replace(/^[0-9a-f]{7,40}\//, '')]) {
    const text = await readFile(join(root, 'sample-runs/tau2-data', r), 'utf8').catch(() => null);
    if (text !== null) return text;
  }
  return null;
};

/** `v` with the value at `path` set (or deleted: `undefined`), each step an object key or a list position. */
function setAt(v: unknown, path: readonly string[], by: unknown): unknown {
  if (path.length === 0) return by;
  const [h, ...rest] = path as [string, ...string[]];
  if (Array.isArray(v) && /^\d+$/.test(h)) return v.map((x, i) => (i === Number(h) ? setAt(x, rest, by) : x));
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const out = Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([k]) => k !== h));
    const next = setAt((v as Record<string, unknown>)[h], rest, by);
    return next === undefined ? out : Object.fromEntries([...Object.entries(out), [h, next]]);
  }
  return v;
}

type Verdicts = { reports: { reward: number; error: string | null; tau2_would_refuse: string | null }[]; run: Tau2Run } | { refused: string };
async function judgeTau2(run: typeof tau2Sample): Promise<Verdicts> {
  let parsed: Tau2Run;
  try {
    parsed = Tau2Session.read(JSON.stringify(run));
  } catch (e) {
    if (e instanceof Tau2FileError) return { refused: e.message };
    throw e;
  }
  const session = await Tau2Session.open(parsed, tau2SampleRead, { dbs: tau2Dbs });
  return { reports: [...Array(session.size).keys()].map((i) => session.report(i)), run: parsed };
}
const verdict = (r: { reward: number; error: string | null }): string => JSON.stringify([r.reward, r.error]);

describe('fuzz: τ² simulations judged (fast-check)', () => {
  let baseline: { reward: number; error: string | null; tau2_would_refuse: string | null }[] = [];
  beforeAll(async () => {
    const b = await judgeTau2(tau2Sample);
    if ('refused' in b) throw new Error(b.refused);
    baseline = b.reports;
  });

  const check = async (mutation: { where: 'task' | 'simulation'; index: number; path: string[]; value: unknown }): Promise<void> => {
    tau2Cases++;
    const run = structuredClone(tau2Sample);
    const list = mutation.where === 'task' ? run.tasks : run.simulations;
    list[mutation.index] = setAt(list[mutation.index], mutation.path, mutation.value) as Record<string, unknown>;
    const out = await judgeTau2(run);
    if ('refused' in out) {
      expectSentence(out.refused, 'refusal');
      return;
    }
    const taskId = mutation.where === 'task' ? tau2Sample.tasks[mutation.index]!.id : null;
    out.reports.forEach((r, i) => {
      const sim = out.run.simulations[i]!;
      const touched = mutation.where === 'simulation' ? i === mutation.index : tau2Sample.simulations[i]!.task_id === taskId;
      if (r.error !== null) expectSentence(r.error, 'simulation error');
      if (touched) {
        if (r.error?.startsWith('not evaluable: ')) tau2Seen.unreadable++;
        else if (r.tau2_would_refuse !== null) tau2Seen.marked++;
        else if (r.error === null) tau2Seen.judged++;
      }
      if (r.tau2_would_refuse !== null) expect(r.error).toBeNull();
      // No verdict from a part τ² could not read.
      const task = out.run.tasks.get(sim.taskId);
      if (sim.refusals.blocking !== null || task?.refusals.blocking) expect(r.error, `simulation ${i}`).toMatch(/^not evaluable: /);
      if (mutation.where === 'task' && touched && ['evaluation_criteria', 'initial_state'].includes(mutation.path[0]!)) {
        const errors = out.run.tasks.get(sim.taskId)?.refusals.blocking ?? null;
        if (errors !== null) expect(r.error).toBe(`not evaluable: τ² refuses this results file at a part the verdict reads: ${errors}`);
      }
      // An untouched simulation keeps its verdict (a task id changed or lost moves no other simulation).
      if (!touched && !(mutation.where === 'task' && mutation.path[0] === 'id')) expect(verdict(r), `simulation ${i}`).toBe(verdict(baseline[i]!));
    });
  };

  it(`task parts, message and simulation fields, ticks: ≥ ${TAU2_MIN_CASES} cases, nothing thrown, no verdict from an unreadable part, no untouched simulation changed`, async () => {
    const task = fc.record({
      where: fc.constant('task' as const),
      index: fc.nat(tau2Sample.tasks.length - 1),
      path: fc.constantFrom(...TASK_PATHS),
      value: fc.option(tau2Value, { nil: undefined }),
    });
    const message = fc
      .record({
        index: fc.nat(tau2Sample.simulations.length - 1),
        m: fc.nat(7),
        field: fc.constantFrom(...MESSAGE_FIELDS),
        value: fc.option(tau2Value, { nil: undefined }),
      })
      .map(({ index, m, field, value }) => ({
        where: 'simulation' as const,
        index,
        path: ['messages', String(m % (tau2Sample.simulations[index]!.messages as unknown[]).length), field],
        value,
      }));
    const call = fc
      .record({ index: fc.nat(tau2Sample.simulations.length - 1), field: fc.constantFrom(...CALL_FIELDS), value: tau2Value })
      .map(({ index, field, value }) => {
        const m = (tau2Sample.simulations[index]!.messages as { tool_calls?: unknown[] | null }[]).findIndex((x) => (x.tool_calls?.length ?? 0) > 0);
        return { where: 'simulation' as const, index, path: ['messages', String(Math.max(m, 0)), 'tool_calls', '0', field], value };
      });
    const simulation = fc.record({
      where: fc.constant('simulation' as const),
      index: fc.nat(tau2Sample.simulations.length - 1),
      path: fc.constantFrom(...SIMULATION_FIELDS).map((f) => [f]),
      value: fc.option(tau2Value, { nil: undefined }),
    });
    await fc.assert(fc.asyncProperty(fc.oneof(task, message, call, simulation), check), { seed: SEED, numRuns: TAU2_MIN_CASES, endOnFailure: true });
    expect(tau2Cases).toBeGreaterThanOrEqual(TAU2_MIN_CASES);
    console.log(`fuzz-properties: τ² touched simulations ${JSON.stringify(tau2Seen)}`);
    for (const [k, n] of Object.entries(tau2Seen)) expect(n, k).toBeGreaterThan(50);
  }, 120_000);
});

// ---------------------------------------------------------------- notes import

const note = fc.record({
  fingerprint: fc.stringMatching(/^[0-9a-f]{64}$/),
  label: fc.constantFrom(null, ...NOTE_LABELS),
  note: fc.string({ unit: 'binary', maxLength: 60 }),
  steps: fc.dictionary(fc.nat(500).map(String), fc.string({ unit: 'binary', maxLength: 20 }), { maxKeys: 4 }),
  file: fc.option(fc.string({ unit: 'binary', maxLength: 20 }), { nil: null }),
  index: fc.option(fc.nat(10_000), { nil: null }),
  taskId: fc.option(fc.nat(10_000), { nil: null }),
  updatedAt: fc.constant('2026-12-04T00:00:00.000Z'),
}) as fc.Arbitrary<EpisodeNotes>;

describe('fuzz: notes import (fast-check)', () => {
  it('any text: parsed or refused in a sentence, never thrown', () => {
    const valid = fc.array(note, { maxLength: 4 }).map((ns) => exportNotes('run', ns));
    const text = fc.oneof(
      fc.json(),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.tuple(valid, fc.nat(), fc.string({ unit: 'binary', maxLength: 4 })).map(([t, at, ins]) => t.slice(0, at % t.length) + ins + t.slice(at % t.length)),
      fc.tuple(valid, fc.nat()).map(([t, at]) => t.slice(0, at % t.length)),
    );
    run(text, 200, (t) => {
      const r = parseNotesExport(t);
      if (!r.ok) expectSentence(r.error, 'refusal');
      else for (const e of r.value.episodes) expect(Object.getPrototypeOf(e.steps)).toBeNull();
    });
  });

  it('an export reads back exactly: every note with content, any text in it', () => {
    run(fc.array(note, { maxLength: 5 }), 100, (ns) => {
      const r = parseNotesExport(exportNotes('run', ns));
      expect(r.ok).toBe(true);
      const key = (n: EpisodeNotes) => JSON.stringify([n.fingerprint, n.label, n.note, Object.entries(n.steps).sort(), n.file, n.index, n.taskId]);
      expect(r.ok && r.value.episodes.map(key).sort()).toEqual(ns.filter(hasContent).map(key).sort());
    });
  });
});

// ---------------------------------------------------------------- links

const B64URL = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), maxLength: 200 });
const edit = fc.record(
  {
    messageIndex: fc.nat(100),
    remove: fc.boolean(),
    insert: fc.boolean(),
    name: fc.string({ unit: 'binary', maxLength: 10 }),
    kwargsJson: fc.string({ unit: 'binary', maxLength: 20 }),
    content: fc.string({ unit: 'binary', maxLength: 20 }),
  },
  { requiredKeys: ['messageIndex'] },
) as fc.Arbitrary<StepEdit>;

describe('fuzz: link decoders (fast-check)', () => {
  it('a shared episode payload: decoded or refused in a sentence', () => {
    run(fc.oneof(B64URL, fc.string({ unit: 'binary', maxLength: 100 })), 150, (p) => {
      try {
        const text = decodeSharedEpisode(p);
        const { context } = splitSharedText(text);
        if (context !== null) for (const problem of readShareContext(context).problems) expectSentence(problem, 'problem');
      } catch (e) {
        expect(e).toBeInstanceOf(Error);
        expect((e as Error).message).toMatch(/^the episode in this link is damaged \(.+\)$/s);
      }
    });
  });

  it('what-if edits: any payload decoded or refused in a sentence; any edits read back exactly', () => {
    run(fc.oneof(B64URL, fc.array(edit, { maxLength: 4 }).map(encodeEdits)), 100, (p) => {
      try {
        decodeEdits(p);
      } catch (e) {
        expect(e).toBeInstanceOf(Error);
        expectSentence((e as Error).message, 'refusal');
      }
    });
    run(fc.array(edit, { maxLength: 4 }), 100, (es) => expect(decodeEdits(encodeEdits(es))).toEqual(es));
  });

  it('a share context: any context line is read field by field, problems in words; a written one reads back exactly', () => {
    run(fc.oneof(fc.json(), fc.string({ unit: 'binary', maxLength: 100 })), 100, (line) => {
      const { ctx, problems } = readShareContext(line);
      expect(ctx.file === null || typeof ctx.file === 'string').toBe(true);
      expect(Number.isSafeInteger(ctx.step) && ctx.step >= 0).toBe(true);
      for (const p of problems) expectSentence(p, 'problem');
    });
    const ctxArb = fc.record({
      file: fc.option(fc.string({ unit: 'binary', maxLength: 30 }), { nil: null }),
      index: fc.option(fc.nat(), { nil: null }),
      step: fc.nat(),
      notes: fc.constant(null),
      edits: fc.array(edit, { maxLength: 3 }),
    }) as fc.Arbitrary<ShareContext>;
    run(ctxArb, 100, (ctx) => {
      const { episode, context } = splitSharedText(decodeSharedEpisode(sharePayload('{"task_id": 1}', ctx)));
      expect(episode).toBe('{"task_id": 1}');
      expect(readShareContext(context!)).toEqual({ ctx, problems: [] });
    });
  });

  it('a link fragment: any text is read without throwing', () => {
    run(fc.string({ unit: 'binary', maxLength: 120 }), 100, (h) => {
      const l = parseLink(`#${h}`);
      expect(l.episode === null || Number.isSafeInteger(l.episode)).toBe(true);
    });
  });
});
