import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ListSplitter } from '../../../src/core/py/json-split';
import { decodeResultsBytes } from '../../../src/core/model/episode/decode';
import { readResults } from '../../../src/core/model/episode/results-file';
import { InspectSession } from '../../../src/core/session/session';
import { describeShared, SHARED_DIR } from '../../support/shared';
import { mulberry32 as prng } from '../../support/prng';
import { chunkedFileCases, chunks, fingerprint, streamed } from './chunked-files.cases';

/**
 * Issue 9 item 3: a results file read from its bytes chunk by chunk (never its whole text) gives the
 * same episodes as the whole text read at once, however the bytes are cut into chunks; anything
 * not plain (damage, UTF-16, other formats) is handed back to the whole-text reader.
 */

const utf8 = new TextEncoder();
const textOf = (parts: readonly Uint8Array[]): string => new TextDecoder().decode(new Uint8Array(parts.flatMap((p) => [...p])));

describe('ListSplitter', () => {
  const tricky = '\ufeff [ {"a":"x\\\\\\"}]{[", "b":[1,{"c":"\\\\"}], "é":"😀"} ,\n\t{"traj":[], "k":"]}"}\r\n] \n';
  const bytes = utf8.encode(tricky);

  it('finds the same elements however the bytes are cut, at every pair of cut points', () => {
    const want: string[] = [];
    expect(new ListSplitter((b) => (want.push(textOf(b)), true)).push(bytes)).toBe(true);
    expect(want).toEqual(['{"a":"x\\\\\\"}]{[", "b":[1,{"c":"\\\\"}], "é":"😀"}', '{"traj":[], "k":"]}"}']);
    for (let i = 1; i < bytes.length; i++)
      for (let j = i; j < bytes.length; j++) {
        const got: [string, number, number][] = [];
        const s = new ListSplitter((b, a, e) => (got.push([textOf(b), a, e]), true));
        for (const part of [bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]) expect(s.push(part)).toBe(true);
        expect(s.end()).toBe(true);
        expect(got.map((g) => g[0])).toEqual(want);
        for (const [text, a, e] of got) expect(new TextDecoder().decode(bytes.subarray(a, e))).toBe(text);
      }
  });

  it('finds every element of 500 generated lists (strings of backslashes, quotes and brackets) cut at random', () => {
    const rnd = prng(36);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    for (let round = 0; round < 500; round++) {
      const elements = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => {
        const text = Array.from({ length: Math.floor(rnd() * 12) }, () => pick(['\\', '"', 'a', '{', '}', '[', ']', 'é', '\\\\', ' '])).join('');
        return JSON.stringify({ [pick(['k', '\\', '"'])]: text, n: [1, { m: text }] });
      });
      const bytes = utf8.encode(`[${elements.join(pick([',', ' , ', ',\n']))}]`);
      const got: string[] = [];
      const s = new ListSplitter((b, a, e) => {
        expect(new TextDecoder().decode(bytes.subarray(a, e))).toBe(textOf(b));
        got.push(textOf(b));
        return true;
      });
      for (let at = 0; at < bytes.length;) {
        const size = 1 + Math.floor(rnd() * 8);
        expect(s.push(bytes.subarray(at, at + size))).toBe(true);
        at += size;
      }
      expect(s.end()).toBe(true);
      expect(got).toEqual(elements);
    }
  });

  it.each([
    ['an empty list', '[]'],
    ['an element that is not an object', '[{"a":1}, 2]'],
    ['a trailing comma', '[{"a":1},]'],
    ['two commas', '[{"a":1},,{"b":2}]'],
    ['a missing comma', '[{"a":1} {"b":2}]'],
    ['text after the list', '[{"a":1}] x'],
    ['a second list', '[{"a":1}][]'],
    ['a cut end', '[{"a":1}, {"b":'],
    ['a list never closed', '[{"a":1}'],
    ['an object at the top', '{"traj":[]}'],
    ['a non-JSON space (form feed)', '[{"a":1},\f{"b":2}]'],
    ['UTF-16', '\ufffe'],
    ['half a byte-order mark after a space', ' \xbb'],
  ])('stops on %s (the whole-text reader explains it)', (_, text) => {
    const s = new ListSplitter(() => true);
    const bytes =
      text === '\ufffe'
        ? new Uint8Array([0xff, 0xfe, 0x5b, 0x00])
        : text === ' \xbb'
          ? new Uint8Array([0x20, 0xbb, 0xbf, 0x5b, 0x7b, 0x7d, 0x5d])
          : utf8.encode(text);
    s.push(bytes);
    expect(s.end()).toBe(false);
    expect(s.ok).toBe(false);
  });
});

describe('a cut byte-order mark', () => {
  // Only a whole EF BB BF is a mark: one or two of its bytes are not UTF-8, so the whole text begins
  // with U+FFFD and is not JSON. The splitter took them for the start of a mark and read on.
  it.each([
    ['EF BB then [', [0xef, 0xbb]],
    ['EF then [', [0xef]],
    ['EF, a space, then [', [0xef, 0x20]],
    ['EF BB, a newline, then [', [0xef, 0xbb, 0x0a]],
    ['EF BB EF BB BF then [', [0xef, 0xbb, 0xef, 0xbb, 0xbf]],
  ])('%s: the splitter stops, and the session from bytes is refused as the whole text is', (_, head) => {
    const bytes = new Uint8Array([
      ...head,
      ...utf8.encode('[{"task_id": 0, "info": {"task": {"user_id": "u", "actions": [], "outputs": []}}, "traj": [{"role": "user", "content": "hi"}]}]'),
    ]);
    for (const size of [1, 2, 3, bytes.length]) {
      const s = new ListSplitter(() => true);
      for (let at = 0; at < bytes.length; at += size) s.push(bytes.subarray(at, at + size));
      expect(s.end(), `chunks of ${size}`).toBe(false);
    }
    const error = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        return String(e);
      }
      return 'no error';
    };
    const want = error(() => new InspectSession(decodeResultsBytes(bytes)));
    expect(want).toMatch(/^Error: not valid JSON: Expecting value: line 1 column 1 \(char 0\)/);
    for (const size of [1, 2, 4096])
      expect(
        error(() => InspectSession.fromBytes(bytes, {}, undefined, {}, size)),
        `chunks of ${size}`,
      ).toBe(want);
  });
});

describe('fromBytes with any chunk size', () => {
  // A size below 1 (0, negative, NaN) read one byte a chunk; 0 and below never moved on (it hung).
  it.each([0, -5, 0.5, NaN, 1.5, 3, Infinity])('chunks of %s give the session of the whole bytes', (size) => {
    const text =
      '[{"task_id": 0, "reward": 1.0, "info": {"task": {"user_id": "u", "actions": [], "outputs": []}}, "traj": [{"role": "user", "content": "h\u00e9 😀"}]}]';
    const want = new InspectSession(text, { domain: 'retail' });
    const bytes = utf8.encode(text);
    // Pushes counted (a reader that stops a push loop that would never end, so the spec fails, not hangs).
    let pushes = 0;
    const reader = InspectSession.reader;
    const spy = vi.spyOn(InspectSession, 'reader').mockImplementation((...args) => {
      const r = reader(...args);
      return {
        push: (chunk) => {
          if (++pushes > bytes.length) throw new Error(`${pushes} pushes for ${bytes.length} bytes`);
          return r.push(chunk);
        },
        get count() {
          return r.count;
        },
        early: () => r.early(),
        session: () => r.session(),
      };
    });
    let got: InspectSession;
    try {
      got = InspectSession.fromBytes(bytes, { domain: 'retail' }, undefined, {}, size);
    } finally {
      spy.mockRestore();
    }
    expect(pushes).toBeLessThanOrEqual(bytes.length);
    expect(got.records.map(fingerprint)).toEqual(want.records.map(fingerprint));
    expect(got.headers()).toEqual(want.headers());
  });
});

describe('ResultsStream hands back what it cannot read plainly', () => {
  const ep = (id: number, extra = ''): string =>
    `{"task_id": ${id}, "reward": 1.0, "info": {"task": {"user_id": "u", "actions": [], "outputs": []}}, "traj": [{"role": "user", "content": "hi${extra}"}]${''}}`;
  it.each([
    ['invalid UTF-8', new Uint8Array([...utf8.encode(`[${ep(0)}, ${ep(1).slice(0, 60)}`), 0xff, ...utf8.encode(`${ep(1).slice(60)}]`)])],
    ['U+FFFD written in the file', utf8.encode(`[${ep(0, '\ufffd')}]`)],
    ['an over-long integer', utf8.encode(`[${ep(0)}, {"task_id": ${'9'.repeat(5000)}, "traj": []}]`)],
    ['nesting past the depth limit', utf8.encode(`[${ep(0)}, {"traj": ${'['.repeat(1000)}${']'.repeat(1000)}}]`)],
    ['a syntax error inside an element', utf8.encode(`[${ep(0)}, {"traj": [1 2]}]`)],
    ['a bare message list', utf8.encode('[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]')],
    ['a mismatched bracket', utf8.encode(`[${ep(0)}, {"traj": [}]]`)],
  ])('%s', (_, bytes) => {
    expect(streamed(bytes, [bytes]).records).toBeNull();
    // …and the session opened from those bytes is the one the whole text gives.
    const text = new TextDecoder().decode(bytes);
    let want: string;
    try {
      const s = new InspectSession(text);
      want = JSON.stringify([s.records.map(fingerprint), s.fileKind, s.headers()]);
    } catch (e) {
      want = String(e);
    }
    let have: string;
    try {
      const s = InspectSession.fromBytes(bytes, {}, undefined, {}, 17);
      have = JSON.stringify([s.records.map(fingerprint), s.fileKind, s.headers()]);
    } catch (e) {
      have = String(e);
    }
    expect(have).toBe(want);
  });

  it('reads a UTF-8 byte-order mark and CRLF line ends plainly', () => {
    const bytes = utf8.encode(`\ufeff[\r\n${ep(0)},\r\n${ep(1, 'é😀')}\r\n]\r\n`);
    const got = streamed(bytes, chunks(bytes, prng(3), 5));
    expect(got.records?.map(fingerprint)).toEqual(readResults(new TextDecoder().decode(bytes)).records.map(fingerprint));
  });
});

// Every file of ../shared/runs and ../shared/forks is in the soak (test/soak/results-stream.spec.ts): a plain run,
// a fork and a τ² file (handed back) here.
chunkedFileCases('a results file read chunk by chunk gives the same episodes as its whole text', [
  'forks/madhav-kanda-test-results-trial-1.json',
  'forks/tau2-airline-grok3mini.json',
  'runs/qwen3-8b-react-retail.json',
]);

describeShared('a session from bytes, and search, on real runs', () => {
  const bytesOf = new Map<string, Uint8Array>();
  beforeAll(() => {
    for (const f of ['runs/gpt-4o-airline.json', 'runs/qwen3-8b-react-retail.json', 'runs/grok-4-tool-calling-retail.json'])
      bytesOf.set(f, new Uint8Array(readFileSync(join(SHARED_DIR, f))));
  });

  it('a session from bytes judges every episode as the session from the text (two files, both domains)', async () => {
    const { sharedDb } = await import('../../support/shared');
    const { KNOWN_DATA_VERSIONS } = await import('../../../src/core/model/data/versions');
    for (const f of ['runs/gpt-4o-airline.json', 'runs/qwen3-8b-react-retail.json']) {
      const bytes = bytesOf.get(f)!;
      const a = new InspectSession(new TextDecoder().decode(bytes));
      const b = InspectSession.fromBytes(bytes, {}, undefined, { keptEvaluations: 3, headers: true }, 100_003);
      for (const s of [a, b]) s.useData(KNOWN_DATA_VERSIONS.map((k) => ({ commit: k.commit, known: k, db: sharedDb(k.commit, s.domain), source: 'shared' })));
      expect(JSON.stringify(b.evaluateAll()), f).toBe(JSON.stringify(a.evaluateAll()));
      expect(b.detection(), f).toEqual(a.detection());
      expect(b.headers(), f).toEqual(a.headers());
    }
  }, 120_000);

  it('search finds the same episodes when it skips those whose text cannot hold the query', () => {
    const queries = ['refund', 'W', '#w', 'order_id', 'the', 'zzzz-none', '1.0', 'é', 'transfer_to_human', '"', '\\', '/', 'k', 'i', 'mia_li', ' '];
    for (const f of ['runs/gpt-4o-airline.json', 'runs/qwen3-8b-react-retail.json', 'runs/grok-4-tool-calling-retail.json']) {
      const bytes = bytesOf.get(f)!;
      const quick = InspectSession.fromBytes(bytes);
      const whole = new InspectSession(readResults(new TextDecoder().decode(bytes)).records);
      for (const q of queries) {
        const all = whole.search(q);
        expect(quick.search(q), `${f} "${q}"`).toEqual(all);
        // In slices, as the worker searches: the same episodes.
        const sliced = [0, 7, 8, 50, quick.records.length].flatMap((a, k, cuts) => (k + 1 < cuts.length ? quick.search(q, a, cuts[k + 1]) : []));
        expect(sliced, `${f} "${q}" in slices`).toEqual(all);
      }
    }
  });
});

describe('search through escapes', () => {
  it('a query matches characters written as \\u escapes, and letters that lower-case to ASCII', () => {
    const ep = (content: string): string =>
      `{"task_id": 0, "reward": 1.0, "info": {"task": {"user_id": "u", "actions": [], "outputs": []}}, "traj": [{"role": "user", "content": "${content}"}]}`;
    const text = `[${[ep('plain words'), ep('\\u0041BC order'), ep('\\u212a is kelvin'), ep('\\u0130stanbul'), ep('caf\\u00e9'), ep('x\\/y')].join(', ')}]`;
    const quick = InspectSession.fromBytes(utf8.encode(text), { domain: 'retail' });
    const whole = new InspectSession(readResults(text).records, { domain: 'retail' });
    for (const q of ['abc', 'k is', 'i', 'istanbul', 'café', 'caf', 'x/y', 'plain', 'order']) expect(quick.search(q), q).toEqual(whole.search(q));
    expect(quick.search('abc')).toEqual([1]);
    expect(quick.search('k is')).toEqual([2]);
  });
});
