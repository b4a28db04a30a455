import { describe, expect, it } from 'vitest';
import type { FileLike } from '../../src/protocol/wire-types';
import { InspectSession } from '../../src/core/session/session';
import { jsonDumps } from '../../src/core/py/json-dumps';
import { parseJson } from '../../src/core/py/json-parse';
import type { PyValue } from '../../src/core/py/value';
import { openRun, type OpenHooks } from '../../src/worker/read-run';
import { sampleRunText } from '../support/fixtures';

/**
 * Issue 9 item 3 in the worker: a local file is read in slices as it arrives (never `arrayBuffer()`
 * of the whole file, never one text of it) into the same session the whole text gives; a damaged or
 * UTF-16 file is read the careful way, with its damage located; an open no longer wanted stops
 * reading.
 */

/** A DOM-like File over `bytes` that counts what was read of it; `fail`: slices from that byte on cannot be read (the file was removed). */
function fakeFile(
  name: string,
  bytes: Uint8Array,
): FileLike & { slice(a: number, b: number): { arrayBuffer(): Promise<ArrayBuffer> }; reads: [number, number][]; whole: number; fail: number | undefined } {
  const f = {
    name,
    size: bytes.length,
    reads: [] as [number, number][],
    whole: 0,
    fail: undefined as number | undefined,
    text: async () => {
      f.whole++;
      return new TextDecoder().decode(bytes);
    },
    arrayBuffer: async () => {
      f.whole++;
      return bytes.slice().buffer;
    },
    slice: (a: number, b: number) => ({
      arrayBuffer: async () => {
        if (f.fail !== undefined && b > f.fail)
          throw new DOMException('A requested file or directory could not be found at the time an operation was processed.', 'NotFoundError');
        f.reads.push([a, Math.min(b, bytes.length)]);
        return bytes.slice(a, b).buffer;
      },
    }),
  };
  return f;
}

/** The sample run's episodes repeated until the file passes `minBytes` (several 4 MB slices). */
function bigRun(minBytes: number): string {
  const episodes = (parseJson(sampleRunText()) as PyValue[]).map((e) => jsonDumps(e));
  const out: string[] = [];
  let n = 0;
  for (let k = 0; n < minBytes; k++) {
    const e = episodes[k % episodes.length]!;
    out.push(e);
    n += e.length + 2;
  }
  return `[${out.join(', ')}]`;
}

const hooks = (over: Partial<OpenHooks> = {}): OpenHooks & { prefixes: string[] } => {
  const prefixes: string[] = [];
  const prefix = (t: string): boolean => {
    prefixes.push(t);
    return true;
  };
  return { keptEvaluations: 4, wanted: () => true, prefix, prefixes, ...over };
};

const episodesOf = (s: InspectSession): string[] => s.records.map((r) => `${r.index}|${r.taskId}|${r.problem}|${jsonDumps(r.raw)}`);

describe('openRun reads a local file as it arrives', () => {
  const text = bigRun(17 << 20);
  const bytes = new TextEncoder().encode(text);

  it('in slices, into the session the whole text gives', async () => {
    const file = fakeFile('big.json', bytes);
    const told: [number, number | null][] = [];
    const h = hooks({ progress: (loaded, total) => told.push([loaded, total]) });
    const r = await openRun({ kind: 'file', file }, h);
    // The first piece (a big file's first slice is 1 MB, so its first episodes are judged early; then 2, 4,
    // 8 MB, then 16 MB each) is reported at once; later ones a few times a second, growing, never past the size.
    expect(told[0]).toEqual([1 << 20, bytes.length]);
    expect(told.every(([l, t], k) => t === bytes.length && l <= bytes.length && (k === 0 || l > told[k - 1]![0]))).toBe(true);
    expect(file.whole).toBe(0);
    expect(file.reads).toEqual([
      [0, 1 << 20],
      [1 << 20, 3 << 20],
      [3 << 20, 7 << 20],
      [7 << 20, 15 << 20],
      [15 << 20, bytes.length],
    ]);
    expect(h.prefixes).toHaveLength(1);
    expect(h.prefixes[0]!.length).toBe(1 << 20);
    const want = new InspectSession(text, {}, undefined, { headers: true });
    expect(r!.session!.records.length).toBe(want.records.length);
    expect(episodesOf(r!.session!)).toEqual(episodesOf(want));
    // The rows come without fingerprints (computed later, from each episode's bytes again): the same ones.
    const rows = r!.session!.headers();
    expect(rows.map((h) => h.fingerprint)).toEqual(rows.map(() => null));
    expect(rows.map((h, i) => ({ ...h, fingerprint: r!.session!.fingerprint(i) }))).toEqual(want.headers());
    expect(r!.label).toBe('big.json');
  });

  it("opens the run on its first 128 KB's episodes, not its first megabyte's (the run's data is looked for while the rest is read)", async () => {
    const file = fakeFile('big.json', bytes);
    let first = -1;
    await openRun({ kind: 'file', file }, hooks({ early: (s) => void (first < 0 && (first = s.records.length)) }));
    // Episodes whose text ends within the first 128 KB ('[' then ', ' between them: ASCII, one byte a character).
    let within = 0;
    let at = 1;
    for (const e of (parseJson(text) as PyValue[]).map((x) => jsonDumps(x))) {
      at += e.length;
      if (at > 128 << 10) break;
      within++;
      at += 2;
    }
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(within);
  });

  it('reads a file up to 16 MB as its first 64 KB, offered to `prefix` at once (its first megabyte too when they do not tell), and the whole', async () => {
    const mid = new TextEncoder().encode(bigRun(4 << 20));
    for (const tells of [true, false]) {
      const file = fakeFile('mid.json', mid);
      const offered: number[] = [];
      await openRun(
        { kind: 'file', file },
        hooks({
          prefix: (t) => {
            offered.push(t.length);
            return tells;
          },
        }),
      );
      // Its first 64 KB, and the whole file at once beside them (read whole, as before: a part of a file read from
      // another offset took the browser longer, which a τ² file read whole waited for).
      expect(file.reads).toEqual([
        [0, 64 << 10],
        [0, mid.length],
      ]);
      expect(offered).toEqual(tells ? [64 << 10] : [64 << 10, 1 << 20]);
    }
  });

  it('parses no piece after the one that opened the run while `pause` holds it, the next read’s first piece too', async () => {
    const mid = new TextEncoder().encode(bigRun(4 << 20));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let session: InspectSession | null = null;
    let opened = -1;
    const reading = openRun(
      { kind: 'file', file: fakeFile('mid.json', mid) },
      hooks({
        early: (s) => {
          session = s;
          opened = s.records.length;
        },
        pause: () => held,
      }),
    );
    // The first read (64 KB) opens the run; the rest is read meanwhile, and waits.
    for (let k = 0; k < 20; k++) await new Promise((r) => setTimeout(r, 5));
    expect(opened).toBeGreaterThan(0);
    expect(session!.records.length).toBe(opened);
    release();
    const r = await reading;
    expect(r!.session!.records.length).toBe(new InspectSession(new TextDecoder().decode(mid)).records.length);
  });

  it('a file replaced on disk between its two reads says so', async () => {
    const mid = new TextEncoder().encode(bigRun(2 << 20));
    const file = fakeFile('mid.json', mid);
    const slice = file.slice;
    // The whole read sees other bytes than the first 64 KB did.
    file.slice = (a, b) => (a === 0 && b > 64 << 10 ? { arrayBuffer: async () => new Uint8Array(b - a).buffer } : slice(a, b));
    await expect(openRun({ kind: 'file', file }, hooks())).rejects.toThrow(/^reading it stopped part-way \(the file changed between two reads\)/);
  });

  it('stops reading once the run is no longer wanted', async () => {
    // Seven slices; the open is overtaken after the first: at most one more is read (the stream's read-ahead).
    const file = fakeFile('bigger.json', new TextEncoder().encode(bigRun(49 << 20)));
    let asked = 0;
    const r = await openRun({ kind: 'file', file }, hooks({ wanted: () => ++asked < 2 }));
    expect(r).toBeNull();
    expect(file.reads.length).toBeLessThanOrEqual(2);
  });

  it('a file that cannot be read to its end says so', async () => {
    const file = fakeFile('gone.json', bytes);
    file.fail = 20 << 20;
    await expect(openRun({ kind: 'file', file }, hooks())).rejects.toThrow(
      /^reading it stopped part-way \(.*could not be found.*\): was the file changed or removed while it was read\? Open it again$/,
    );
  });

  it('reads a damaged file the careful way: the episodes before the damage, the damage located', async () => {
    const cut = bytes.subarray(0, Math.floor(bytes.length * 0.6));
    const r = await openRun({ kind: 'file', file: fakeFile('cut.json', cut) }, hooks());
    const want = new InspectSession(new TextDecoder().decode(cut));
    expect(episodesOf(r!.session!)).toEqual(episodesOf(want));
    const last = r!.session!.records.at(-1)!;
    expect(last.problem).toMatch(/^the file ends inside episode \d+ at line \d+ column \d+ \(char \d+, byte \d+\)/);
    expect(r!.session!.records.slice(0, -1).every((x) => x.problem === null || !x.problem.includes('file ends'))).toBe(true);
  });

  it('reads UTF-16 and a UTF-8 byte-order mark as the same episodes', async () => {
    const small = sampleRunText();
    const want = episodesOf(new InspectSession(small));
    const utf16 = new Uint8Array(2 + small.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let k = 0; k < small.length; k++) {
      utf16[2 + 2 * k] = small.charCodeAt(k) & 0xff;
      utf16[3 + 2 * k] = small.charCodeAt(k) >> 8;
    }
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(small)]);
    for (const b of [utf16, bom]) {
      const r = await openRun({ kind: 'file', file: fakeFile('x.json', b) }, hooks());
      expect(episodesOf(r!.session!)).toEqual(want);
    }
  });
});
