import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Domain } from '../../../src/core/model/data/db';
import { KNOWN_DATA_VERSIONS, type DataVersion } from '../../../src/core/model/data/versions';
import { decodeResultsBytes } from '../../../src/core/model/episode/decode';
import { ResultsFileError } from '../../../src/core/model/episode/results-file';
import { EvaluationSetupError } from '../../../src/core/judge/detect';
import { EvalCache } from '../../../src/core/judge/cache';
import { jsonDumps } from '../../../src/core/py/json-dumps';
import { parseJson } from '../../../src/core/py/json-parse';
import type { PyDict, PyValue } from '../../../src/core/py/value';
import { InspectSession } from '../../../src/core/session/session';
import { describeShared, hasShared, readShared, SHARED_DIR, sharedDb } from '../../support/shared';
import { mulberry32 as prng } from '../../support/prng';

/**
 * Seeded fuzzing of the core on damaged copies of ../shared/runs: small sub-files (3 episodes)
 * are mutated `mutations` times (the gate, fuzz-damaged-files.spec.ts: 400; the soak,
 * test/soak/fuzz-damaged-files.spec.ts: 1,000, the same seeds, so the gate's mutants are the soak's first 20 of
 * each batch; the same assertions) — truncation, byte flips, type swaps, deleted and duplicated keys,
 * deep nesting, huge numbers, NaN/Infinity, `__proto__` keys, BOM, UTF-16, invalid UTF-8 — and
 * each copy goes through the whole session. Nothing may throw except a ResultsFileError or
 * EvaluationSetupError for a file with nothing readable; every episode the mutation did not
 * touch is judged exactly as in the undamaged file; a damaged episode says where it is damaged.
 */

const SEED = 0x7a0b3e11;

const versions = new Map<Domain, DataVersion[]>();
const versionsFor = (d: Domain): DataVersion[] => {
  let v = versions.get(d);
  if (!v) {
    v = KNOWN_DATA_VERSIONS.map((k) => ({ commit: k.commit, known: k, db: sharedDb(k.commit, d), source: 'shared' }));
    versions.set(d, v);
  }
  return v;
};
// One cache for every session: parsed DBs, their hashes and reference replays are shared.
const cache = new EvalCache();

interface Outcome {
  readonly reports: string[];
  readonly errors: (string | undefined)[];
  readonly notes: readonly string[];
}

/** `text` (or its UTF-8 `bytes`, read chunk by chunk as the CLI and the app's worker do) through the whole session. */
function run(text: string, bytes?: Uint8Array): Outcome | { refused: string } {
  let session: InspectSession;
  try {
    session = bytes ? InspectSession.fromBytes(bytes, {}, cache, {}, 4096) : new InspectSession(text, {}, cache);
    session.useData(versionsFor(session.domain));
  } catch (e) {
    if (e instanceof ResultsFileError || e instanceof EvaluationSetupError) return { refused: e.message };
    throw e;
  }
  const reports = session.evaluateAll();
  return { reports: reports.map((r) => JSON.stringify(r)), errors: reports.map((r) => r.error), notes: session.detection().notes };
}

interface SubFile {
  readonly name: string;
  readonly episodes: PyValue[];
  readonly texts: string[];
  readonly text: string;
  /** [start, end) of each episode in `text`. */
  readonly spans: [number, number][];
  readonly baseline: Outcome;
}

function subFile(name: string, episodes: PyValue[]): SubFile {
  const texts = episodes.map((e) => jsonDumps(e));
  const spans: [number, number][] = [];
  let at = 1;
  for (const t of texts) {
    spans.push([at, at + t.length]);
    at += t.length + 2;
  }
  const text = `[${texts.join(', ')}]`;
  const baseline = run(text);
  if ('refused' in baseline) throw new Error(`${name}: the undamaged sub-file is refused: ${baseline.refused}`);
  return { name, episodes, texts, text, spans, baseline };
}

/** Every path to a value inside an episode (keys and indices), up to a depth. */
function paths(v: PyValue, prefix: (string | number)[] = [], out: (string | number)[][] = [], depth = 6): (string | number)[][] {
  if (depth === 0) return out;
  const entries: [string | number, PyValue][] = v instanceof Map ? [...v] : Array.isArray(v) ? v.map((x, i) => [i, x]) : [];
  for (const [k, x] of entries) {
    out.push([...prefix, k]);
    paths(x, [...prefix, k], out, depth - 1);
  }
  return out;
}

/** A copy of `v` with the value at `path` replaced (`undefined`: deleted). */
function edit(v: PyValue, path: readonly (string | number)[], f: (old: PyValue) => PyValue | undefined): PyValue {
  if (path.length === 0) return f(v) as PyValue;
  const [head, ...rest] = path;
  if (v instanceof Map) {
    const out: PyDict = new Map();
    for (const [k, x] of v) {
      if (k !== head) out.set(k, x);
      else {
        const y = rest.length === 0 ? f(x) : edit(x, rest, f);
        if (y !== undefined) out.set(k, y);
      }
    }
    return out;
  }
  if (Array.isArray(v)) {
    const out: PyValue[] = [];
    v.forEach((x, i) => {
      if (i !== head) out.push(x);
      else {
        const y = rest.length === 0 ? f(x) : edit(x, rest, f);
        if (y !== undefined) out.push(y);
      }
    });
    return out;
  }
  return v;
}

const SWAPS: readonly PyValue[] = [null, true, 0n, 1.5, 'x', [], new Map(), NaN, Infinity, -Infinity, 10n ** 30n];

type Mutation = {
  readonly kind: string;
  readonly text: string;
  /** The episode the mutation touched (null: the whole file, re-encoded without change of content). */
  readonly damaged: number | null;
  /** Episodes after the damaged one may be lost (truncation). */
  readonly tailLost?: boolean;
  /** The text is no longer JSON Python reads: the damaged episode must say where. */
  readonly broken?: boolean;
};

const utf8 = new TextEncoder();
const utf16 = (s: string, be: boolean): Uint8Array => {
  const out = new Uint8Array(2 + s.length * 2);
  out[0] = be ? 0xfe : 0xff;
  out[1] = be ? 0xff : 0xfe;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out[2 + 2 * i + (be ? 0 : 1)] = c >> 8;
    out[2 + 2 * i + (be ? 1 : 0)] = c & 0xff;
  }
  return out;
};

function mutate(f: SubFile, rnd: () => number): Mutation {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const j = Math.floor(rnd() * f.episodes.length);
  const [s0, s1] = f.spans[j]!;
  const inEpisode = (): number => s0 + 1 + Math.floor(rnd() * (s1 - s0 - 2));
  const withEpisode = (e: PyValue): string => `[${f.texts.map((t, i) => (i === j ? jsonDumps(e) : t)).join(', ')}]`;
  const spliced = (at: number, del: number, ins: string): string => f.text.slice(0, at) + ins + f.text.slice(at + del);
  const kind = pick([
    'truncate',
    'flip',
    'swap',
    'delete',
    'duplicate-key',
    'duplicate-episode',
    'nest',
    'huge',
    'nan',
    'proto',
    'bom',
    'utf16',
    'bad-utf8',
  ] as const);
  switch (kind) {
    case 'truncate': {
      const at = inEpisode();
      return { kind, text: f.text.slice(0, at), damaged: j, tailLost: true, broken: true };
    }
    case 'flip': {
      const bytes = utf8.encode(f.text);
      const before = utf8.encode(f.text.slice(0, inEpisode())).length;
      bytes[before] = bytes[before]! ^ (1 << Math.floor(rnd() * 8));
      const text = decodeResultsBytes(bytes);
      let broken = false;
      try {
        parseJson(text);
      } catch {
        broken = true;
      }
      return { kind, text, damaged: j, broken };
    }
    case 'swap': {
      const p = pick(paths(f.episodes[j]!));
      return { kind: `swap ${p.join('..')}`, text: withEpisode(edit(f.episodes[j]!, p, () => pick(SWAPS))), damaged: j };
    }
    case 'delete': {
      const p = pick(paths(f.episodes[j]!));
      return { kind: `delete ${p.join('..')}`, text: withEpisode(edit(f.episodes[j]!, p, () => undefined)), damaged: j };
    }
    case 'duplicate-key': {
      // A key written twice: json.loads keeps the last value.
      const t = f.texts[j]!;
      const m = [...t.matchAll(/"([a-z_]+)": /g)];
      const at = pick(m);
      const dup = `"${at[1]}": ${jsonDumps(pick(SWAPS))}, `;
      return { kind: `duplicate key ${at[1]}`, text: spliced(s0 + at.index, 0, dup), damaged: j };
    }
    case 'duplicate-episode':
      // Not damage: one more episode; the original ones keep their verdicts (compared by index below).
      return { kind, text: `[${[...f.texts, f.texts[j]!].join(', ')}]`, damaged: null };
    case 'nest': {
      const depth = pick([1000, 100_000]);
      return { kind: `nest ${depth}`, text: spliced(s0 + 1, 0, `"deep": ${'['.repeat(depth)}${']'.repeat(depth)}, `), damaged: j, broken: true };
    }
    case 'huge': {
      const digits = pick([4301, 5000, 20_000]);
      return { kind: `huge ${digits}`, text: spliced(s0 + 1, 0, `"huge": ${'9'.repeat(digits)}, `), damaged: j, broken: true };
    }
    case 'nan': {
      const p = pick(paths(f.episodes[j]!).filter((q) => q.length <= 3));
      return { kind: `nan ${p.join('..')}`, text: withEpisode(edit(f.episodes[j]!, p, () => pick([NaN, Infinity, -Infinity]))), damaged: j };
    }
    case 'proto':
      return { kind, text: spliced(s0 + 1, 0, `"__proto__": {"polluted": 1}, "constructor": "x", `), damaged: j };
    case 'bom':
      return { kind, text: decodeResultsBytes(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8.encode(f.text)])), damaged: null };
    case 'utf16':
      return { kind, text: decodeResultsBytes(utf16(f.text, rnd() < 0.5)), damaged: null };
    case 'bad-utf8': {
      // A byte that is not UTF-8 inside a string of episode j.
      const t = f.texts[j]!;
      const quotes = [...t.matchAll(/": "/g)];
      const at = s0 + pick(quotes).index + 4;
      const bytes = utf8.encode(f.text.slice(0, at));
      const text = decodeResultsBytes(new Uint8Array([...bytes, 0xff, 0xc3, ...utf8.encode(f.text.slice(at))]));
      return { kind, text, damaged: j };
    }
  }
}

const runFiles = hasShared
  ? readdirSync(join(SHARED_DIR, 'runs'))
      .filter((f) => f.endsWith('.json'))
      .sort()
  : [];

export function damagedFileFuzzCases(mutations: number): void {
  describeShared(`fuzz: damaged results files (${mutations} mutants)`, () => {
    const rnd = prng(SEED);
    const subs: SubFile[] = runFiles.map((name) => {
      const all = parseJson(readShared('runs', name)) as PyValue[];
      const k = Math.floor(rnd() * (all.length - 3));
      return subFile(`${name}[${k}:${k + 3}]`, all.slice(k, k + 3));
    });
    const BATCHES = 20;
    const perBatch = Math.ceil(mutations / BATCHES);

    it.each(Array.from({ length: BATCHES }, (_, b) => b))(
      'batch %i: no exception, undamaged episodes unchanged, damage located',
      (b) => {
        const r = prng(SEED + 1 + b);
        const failures: string[] = [];
        for (let n = 0; n < perBatch; n++) {
          const f = subs[Math.floor(r() * subs.length)]!;
          const m = mutate(f, r);
          const label = `${f.name} ${m.kind} (batch ${b} #${n})`;
          let out: ReturnType<typeof run>;
          try {
            out = run(m.text);
          } catch (e) {
            failures.push(`${label}: threw ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
            continue;
          }
          // Every other copy is also read from its bytes in chunks: the same outcome, refusal or notes.
          if (n % 2 === 0) {
            let viaBytes: ReturnType<typeof run> | string;
            try {
              viaBytes = run(m.text, new TextEncoder().encode(m.text));
            } catch (e) {
              viaBytes = `threw ${e instanceof Error ? e.message : String(e)}`;
            }
            if (JSON.stringify(viaBytes) !== JSON.stringify(out))
              failures.push(`${label}: read from bytes in chunks differs: ${JSON.stringify(viaBytes).slice(0, 300)}`);
          }
          if ('refused' in out) {
            // Only a file with nothing readable may be refused: the damage is in its first episode.
            if (m.damaged !== 0) failures.push(`${label}: refused: ${out.refused}`);
            else if (m.broken && !/line \d+ column \d+|byte \d+|no episodes/.test(out.refused))
              failures.push(`${label}: refused without a place: ${out.refused}`);
            continue;
          }
          f.baseline.reports.forEach((want, i) => {
            if (i === m.damaged) return;
            if (m.tailLost && m.damaged !== null && i > m.damaged) return;
            const have = out.reports[i];
            if (have !== want) failures.push(`${label}: episode ${i} changed: ${have?.slice(0, 200)} ≠ ${want.slice(0, 200)}`);
          });
          if (m.damaged !== null && m.broken) {
            const said = out.errors[m.damaged] ?? '';
            if (!/line \d+ column \d+ \(char \d+, byte \d+\)/.test(said))
              failures.push(`${label}: damaged episode ${m.damaged} not located: ${said || '(no error)'}`);
          }
          if (m.kind === 'bad-utf8' && !out.notes.some((x) => x.includes(`episode ${m.damaged}`) || x.includes(`episodes ${m.damaged}`)))
            failures.push(`${label}: U+FFFD not reported: ${out.notes.join(' | ')}`);
        }
        expect(failures.slice(0, 5), `${failures.length} failures`).toEqual([]);
        expect(Object.prototype).not.toHaveProperty('polluted');
      },
      120_000,
    );
  });
}
