import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDb, DOMAIN_TABLES } from '../../../src/core/model/data/db';
import { readResults, ResultsFileError } from '../../../src/core/model/episode/results-file';
import { lineColumn, parseJson } from '../../../src/core/py/json-parse';
import { InspectSession } from '../../../src/core/session/session';

const root = resolve(import.meta.dirname, '../../..');
const texts = Object.fromEntries(
  DOMAIN_TABLES.retail.map((t) => [t, readFileSync(join(root, `sample-runs/data/tau_bench/envs/retail/data/${t}.json`), 'utf8')]),
);
const sample = { commit: 'sample', known: null, db: buildDb('retail', texts), source: 'sample' };
const episodes = (JSON.parse(readFileSync(join(root, 'sample-runs/runs/retail-sample.json'), 'utf8')) as Record<string, unknown>[]).slice(0, 4);
const parts = episodes.map((e) => JSON.stringify(e));
const whole = `[${parts.join(', ')}]`;
/** Where episode i starts in `whole`. */
const startOf = (i: number): number => 1 + parts.slice(0, i).reduce((n, p) => n + p.length + 2, 0);

function judge(text: string) {
  const s = new InspectSession(text);
  s.useData([sample]);
  return { reports: s.evaluateAll(), notes: s.detection().notes };
}
const good = judge(whole).reports.map((r) => JSON.stringify(r));

describe('a damaged file still yields every episode the damage does not touch', () => {
  it('a 5,000-digit integer in episode 1: that episode says so, the others are judged as before', () => {
    const at = startOf(1) + 1;
    const text = `${whole.slice(0, at)}"n": ${'7'.repeat(5000)}, ${whole.slice(at)}`;
    // Python's json.loads refuses the whole file (CPython 3.11 text):
    expect(() => parseJson(text)).toThrow(/Exceeds the limit \(4300 digits\) for integer string conversion: value has 5000 digits/);
    const r = judge(text);
    expect(r.reports[1]!.error).toBe(
      `episode 1 is damaged at line 1 column ${at + 6} (char ${at + 5}, byte ${at + 5}): ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits; use sys.set_int_max_str_digits() to increase the limit (Python's json.loads refuses the whole file for this)`,
    );
    expect([0, 2, 3].map((i) => JSON.stringify(r.reports[i]))).toEqual([0, 2, 3].map((i) => good[i]));
  });

  it('a truncated tail: every complete episode before it, and the place it ends', () => {
    const cut = startOf(2) + 100;
    const r = judge(whole.slice(0, cut));
    expect(r.reports.length).toBe(3);
    expect([0, 1].map((i) => JSON.stringify(r.reports[i]))).toEqual([0, 1].map((i) => good[i]));
    expect(r.reports[2]!.error).toMatch(/^the file ends inside episode 2 at line 1 column \d+ \(char \d+, byte \d+\): /);
  });

  it('a tail cut after a complete inner object (reward_info) is only a cut episode, not also "text after the list"', () => {
    // The reader looks for the next episode inside the cut one; an inner object that parses must not
    // leave it believing the list ended there.
    const cut = whole.indexOf('"traj"', startOf(2)) + 30;
    expect(whole.slice(startOf(2), cut)).toContain('"reward_info": {"reward"'.replace(' ', ''));
    const r = judge(whole.slice(0, cut));
    expect(r.reports.length).toBe(3);
    expect(r.reports[2]!.error).toMatch(/^the file ends inside episode 2 at /);
    expect(r.notes.join('\n')).not.toMatch(/text after the list/);
  });

  it('one flipped byte in episode 1: the damage is located, episodes 0, 2 and 3 are judged as before', () => {
    const at = whole.indexOf('"traj"', startOf(1)) + 9;
    const text = `${whole.slice(0, at)}\x01${whole.slice(at + 1)}`;
    const r = judge(text);
    expect(r.reports.length).toBe(4);
    expect(r.reports[1]!.error).toMatch(/^episode 1 is damaged at line 1 column \d+ \(char \d+, byte \d+\): (Expecting|Invalid)/);
    expect([0, 2, 3].map((i) => JSON.stringify(r.reports[i]))).toEqual([0, 2, 3].map((i) => good[i]));
  });

  it('byte offsets count UTF-8 bytes; lines, columns and char count code points as Python does', () => {
    const text = `[\n  {"a": "é€😀", "traj": [}\n]`;
    const f = (): unknown => readResults(text);
    expect(f).toThrow(ResultsFileError);
    expect(f).toThrow(/^not valid JSON: Expecting value: line 2 column 25 \(char 26\) \(byte 32\)$/);
  });

  it('JSONDecodeError counts a character outside the BMP once, as CPython 3.11 does', () => {
    expect(() => parseJson('["😀", x]')).toThrow('Expecting value: line 1 column 7 (char 6)');
  });

  it.each([
    // [what, a broken episode, where in it the error is, Python's message]
    ['a missing value', '{"traj": [}', 10, 'Expecting value'],
    ['a missing comma after an emoji', '{"x": "😀", "traj": [1 2]}', 23, "Expecting ',' delimiter"],
    ['a bad escape on a second line', '{"x": "é€",\n "traj": "\\q"}', 22, 'Invalid \\escape'],
  ])('many damaged episodes (%s) each say their own line, column and char', (_, broken, offset, message) => {
    // Lines, columns and chars are counted on from one damage to the next (linear in the file):
    // every one must be what counting from the start gives.
    const good = '{"traj": [], "x": "😀\\n€"}';
    const elements = Array.from({ length: 60 }, (_, i) => (i % 2 === 1 ? good : broken));
    const text = `[\n${elements.join(',\n')}\n]`;
    const records = readResults(text).records;
    expect(records.length).toBe(60);
    let at = 2;
    elements.forEach((e, i) => {
      if (e === broken) {
        const { line, column, char } = lineColumn(text, at + offset);
        expect(records[i]!.problem, `episode ${i}`).toMatch(
          new RegExp(`^episode ${i} is damaged at line ${line} column ${column} \\(char ${char}, byte \\d+\\): ${message.replace(/\\/g, '\\\\')}`),
        );
      } else expect(records[i]!.problem, `episode ${i}`).toBe('info.task is missing, not an object');
      at += e.length + 2;
    });
  });

  it("deep nesting is a RecursionError with CPython's text, in that episode only", () => {
    const at = startOf(0) + 1;
    const text = `${whole.slice(0, at)}"deep": ${'['.repeat(100_000)}${']'.repeat(100_000)}, ${whole.slice(at)}`;
    const r = judge(text);
    expect(r.reports[0]!.error).toMatch(/RecursionError: maximum recursion depth exceeded while decoding a JSON array from a unicode string/);
    expect([1, 2, 3].map((i) => JSON.stringify(r.reports[i]))).toEqual([1, 2, 3].map((i) => good[i]));
  });

  it('an episode that does not fit the schema names the field, the index and what was expected', () => {
    const bad = [
      episodes[0],
      { ...episodes[1], reward: 'high' },
      { ...episodes[2], traj: [...(episodes[2]!.traj as unknown[]).slice(0, 2), 7] },
      { ...episodes[3], trial: NaN },
    ];
    const text = JSON.stringify(bad)
      .replace('null', 'null')
      .replace(/"trial":null/, '"trial":NaN');
    const r = judge(text);
    // A recorded reward is no input of the verdict: one that is not a number is shown as recorded, and the episode judged (issue 20 item 6).
    expect(r.reports[1]!.error).toBeUndefined();
    expect(r.reports[1]!.recorded_reward_text).toBe("'high' (a str, not a number)");
    expect(r.reports[1]!.reward).toBe(JSON.parse(good[1]!).reward);
    expect(r.reports[2]!.error).toBe('traj[2] is a int, not an object (a message)');
    expect(r.reports[3]!.error).toBe('trial is nan, not a finite number');
    expect(JSON.stringify(r.reports[0])).toBe(good[0]);
  });

  it('a key named __proto__ stays an ordinary field', () => {
    const at = startOf(0) + 1;
    const r = readResults(`${whole.slice(0, at)}"__proto__": "x", ${whole.slice(at)}`);
    expect(Object.getOwnPropertyDescriptor(r.records[0]!.extra, '__proto__')?.value).toBe('x');
    expect(Object.getPrototypeOf(r.records[0]!.extra)).toBe(Object.prototype);
  });

  it("byte offsets are the file's own: past a byte-order mark, in UTF-16, and with invalid bytes (each as many bytes as it had)", () => {
    const utf8 = new TextEncoder();
    // The damage (a `}` where a value belongs) is at a known byte of each file.
    const body = '[{"a": "é", "traj": [}]]';
    const damageAt = (bytes: Uint8Array): number => bytes.lastIndexOf(0x7d, bytes.length - 3);
    const files: [string, Uint8Array][] = [
      ['a byte-order mark', new Uint8Array([0xef, 0xbb, 0xbf, ...utf8.encode(body)])],
      [
        'two invalid bytes (C3 without its second byte, a lone FF) before it',
        new Uint8Array([...utf8.encode('[{"a": "'), 0xc3, 0xff, ...utf8.encode('", "traj": [}]]')]),
      ],
      ['a cut four-byte character (F0 9F 98) before it', new Uint8Array([...utf8.encode('[{"a": "'), 0xf0, 0x9f, 0x98, ...utf8.encode('", "traj": [}]]')])],
      ['UTF-16LE', new Uint8Array([0xff, 0xfe, ...[...body].flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8])])],
    ];
    for (const [what, bytes] of files) {
      const at = what === 'UTF-16LE' ? 2 + 2 * body.lastIndexOf('}', body.length - 3) : damageAt(bytes);
      let said = '';
      try {
        InspectSession.fromBytes(bytes);
      } catch (e) {
        said = (e as Error).message;
      }
      expect(said, what).toMatch(new RegExp(`\\(byte ${at}\\)$`));
    }
  });

  it('byteOffsets agrees with TextDecoder on random bytes (every character boundary)', async () => {
    const { byteOffsets } = await import('../../../src/core/model/episode/decode');
    let seed = 7;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed / 2147483648);
    const pool = [0x41, 0x7b, 0x80, 0xbf, 0xc2, 0xc3, 0xdf, 0xe0, 0xe2, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0x9f, 0x98, 0xa0, 0x90, 0x8f];
    for (let round = 0; round < 300; round++) {
      const bytes = new Uint8Array(Array.from({ length: 1 + Math.floor(rnd() * 24) }, () => pool[Math.floor(rnd() * pool.length)]!));
      const at = byteOffsets(bytes);
      const text = new TextDecoder().decode(bytes);
      // Every byte where the decoding can be cut in two without changing it is where its prefix's text ends.
      for (let end = 0; end <= bytes.length; end++) {
        const prefix = new TextDecoder().decode(bytes.subarray(0, end));
        if (prefix + new TextDecoder().decode(bytes.subarray(end)) !== text) continue;
        expect(at(prefix.length), `${[...bytes].map((b) => b.toString(16)).join(' ')} at ${end}`).toBe(end);
      }
    }
  });
});
