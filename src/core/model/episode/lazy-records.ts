/** What both results readers give (`ResultsFile`), and the lazy records they keep: messages parsed again from the file when asked for. */
import { parseJson } from '../../py/json-parse';
import type { PyDict, PyValue } from '../../py/value';
import { readEpisode } from './episode-record';
import type { EpisodeRecord } from './types';

/** What kind of file was read, as the user should hear it named. */
export type FileKind = 'tau-bench-results' | 'single-episode' | 'message-list';

export const FILE_KIND_TEXT: Readonly<Record<FileKind, string>> = {
  'tau-bench-results': 'a τ-bench results file (run.py output: a list of episodes)',
  'single-episode': 'a single τ-bench episode (one object of a results file)',
  'message-list': 'a bare message list (one conversation, no task or reward): shown, not judged',
};

export interface ResultsFile {
  readonly records: EpisodeRecord[];
  readonly kind: FileKind;
  /** What is damaged in the file and where, in words. */
  readonly notes: readonly string[];
  /**
   * A lazily read episode's text as it is in the file (its JSON, not parsed), null for others: what
   * a search can look through before it parses an episode.
   */
  readonly episodeText?: (index: number) => string | null;
  /** A streamed file's episode's place in its bytes, `[start, end)` (null for others): what another worker may read and judge. */
  readonly episodeRange?: (index: number) => readonly [number, number] | null;
}

/** Each episode's place in the file, by record index, and its text read from there. */
export class Places {
  private readonly at: number[] = [];
  constructor(private readonly slice: (start: number, end: number) => string) {}
  set(index: number, start: number, end: number): void {
    this.at[2 * index] = start;
    this.at[2 * index + 1] = end;
  }
  readonly text = (index: number): string | null => {
    const start = this.at[2 * index];
    return start === undefined ? null : this.slice(start, this.at[2 * index + 1]!);
  };
  readonly range = (index: number): readonly [number, number] | null => {
    const start = this.at[2 * index];
    return start === undefined ? null : [start, this.at[2 * index + 1]!];
  };
}

/** A message of a bare message list (one conversation), not an episode. */
export const isMessage = (v: PyValue): boolean => v instanceof Map && typeof v.get('role') === 'string';

/** How many parsed episodes a lazy reader keeps (a view, its what-if and a replay in flight). */
const KEPT_PARSES = 6;

export interface Parsed {
  readonly raw: PyValue;
  readonly traj: readonly PyDict[];
}

const trajOf = (raw: PyValue): PyDict[] => {
  const t = raw instanceof Map ? raw.get('traj') : undefined;
  return Array.isArray(t) ? t.filter((m): m is PyDict => m instanceof Map) : [];
};

/** Slices of `text` (a function of its own, so only readers without `elementText` hold the text). */
export const textSlices =
  (text: string) =>
  (start: number, end: number): string =>
    text.slice(start, end);

/** Text bytes of the parses a streaming reader hands over (`Reparser.seed`) that are kept for the judging behind it. */
const SEEDED_BYTES = 4 << 20;
/** At most this many parses handed over and not read yet. */
const KEPT_MOST = 128;

/** Parses elements by their place (`slice` gives an element's text), keeping the last few; `seed` hands it a parse made already. */
export interface Reparser {
  (start: number, end: number): Parsed;
  /**
   * The value the reader parsed at `[start, end)` as it read it (the very value a parse of the slice gives), kept
   * for the judging that follows the reading, until it is read (then it is one of the last few read): parses handed
   * over and not read yet are kept while their texts come to `SEEDED_BYTES` and `KEPT_MOST` in all, the oldest let go first.
   */
  seed(start: number, end: number, raw: PyValue): void;
}

/** Parses elements again by their place (`slice` gives an element's text), keeping the last few. */
export function reparser(slice: (start: number, end: number) => string): Reparser {
  /** Parses read lately, the most recent last (at most `KEPT_PARSES`). */
  const recent = new Map<number, Parsed>();
  /**
   * Parses handed over and not read yet, the oldest first. One read moves to `recent`: a parse is kept for the judging
   * that follows the reading, not after it (an episode judged, its tree lets go young: the collector need not copy it).
   */
  const seeded = new Map<number, Parsed & { readonly bytes: number }>();
  let bytes = 0;
  const touch = (start: number, p: Parsed): Parsed => {
    recent.delete(start);
    recent.set(start, p);
    if (recent.size > KEPT_PARSES) recent.delete(recent.keys().next().value!);
    return p;
  };
  const read = (start: number, end: number): Parsed => {
    const p = recent.get(start);
    if (p !== undefined) return touch(start, p);
    const q = seeded.get(start);
    if (q !== undefined) {
      seeded.delete(start);
      bytes -= q.bytes;
      return touch(start, { raw: q.raw, traj: q.traj });
    }
    const raw = parseJson(slice(start, end));
    return touch(start, { raw, traj: trajOf(raw) });
  };
  return Object.assign(read, {
    seed(start: number, end: number, raw: PyValue): void {
      const had = seeded.get(start);
      if (had !== undefined) {
        seeded.delete(start);
        bytes -= had.bytes;
      }
      recent.delete(start);
      seeded.set(start, { raw, traj: trajOf(raw), bytes: end - start });
      bytes += end - start;
      while (seeded.size > KEPT_MOST || (seeded.size > 1 && bytes > SEEDED_BYTES)) {
        const [oldest, o] = seeded.entries().next().value!;
        seeded.delete(oldest);
        bytes -= o.bytes;
      }
    },
  });
}

/**
 * The record of an episode from its text alone, as a lazy record gives it once read: the fields
 * `readEpisode` reads, and `raw` and `traj` as `reparser` parses them (another worker judging it).
 */
export function parsedRecord(text: string, index: number): EpisodeRecord {
  const raw = parseJson(text);
  const { traj: _traj, raw: _raw, ...rest } = readEpisode(raw, index);
  return { ...rest, raw, traj: trajOf(raw) };
}

/**
 * `r` with its messages read again on demand (see `ReadOptions.lazy`). A top-level function, so
 * the getters hold on to `read` and the range only, never to the text being scanned.
 */
export function lazyRecord(r: EpisodeRecord, read: (start: number, end: number) => Parsed, start: number, end: number): EpisodeRecord {
  // The rest of the record is strings of their own already (see `readEpisode`).
  const { traj: _traj, raw: _raw, ...rest } = r;
  return Object.defineProperties(rest, {
    traj: { enumerable: true, get: () => read(start, end).traj },
    raw: { enumerable: true, get: () => read(start, end).raw },
  }) as EpisodeRecord;
}
