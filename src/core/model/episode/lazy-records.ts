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
/** At most this many parses kept in all, seeded or made. */
const KEPT_MOST = 128;

/** Parses elements by their place (`slice` gives an element's text), keeping the last few; `seed` hands it a parse made already. */
export interface Reparser {
  (start: number, end: number): Parsed;
  /**
   * The value the reader parsed at `[start, end)` as it read it (the very value a parse of the slice gives), kept
   * for the judging that follows the reading: parses handed over are kept while their texts come to
   * `SEEDED_BYTES` and `KEPT_MOST` in all, the oldest let go first.
   */
  seed(start: number, end: number, raw: PyValue): void;
}

/** Parses elements again by their place (`slice` gives an element's text), keeping the last few. */
export function reparser(slice: (start: number, end: number) => string): Reparser {
  const kept = new Map<number, Parsed & { readonly bytes: number }>();
  let bytes = 0;
  const keep = (start: number, p: Parsed & { readonly bytes: number }): void => {
    kept.set(start, p);
    bytes += p.bytes;
    while (kept.size > KEPT_PARSES && (kept.size > KEPT_MOST || bytes > SEEDED_BYTES)) {
      const [oldest, q] = kept.entries().next().value!;
      kept.delete(oldest);
      bytes -= q.bytes;
    }
  };
  const read = (start: number, end: number): Parsed => {
    let p = kept.get(start);
    if (p !== undefined) {
      kept.delete(start);
      bytes -= p.bytes;
    } else {
      const raw = parseJson(slice(start, end));
      p = { raw, traj: trajOf(raw), bytes: end - start };
    }
    keep(start, p);
    return p;
  };
  return Object.assign(read, {
    seed(start: number, end: number, raw: PyValue): void {
      const had = kept.get(start);
      if (had !== undefined) {
        kept.delete(start);
        bytes -= had.bytes;
      }
      keep(start, { raw, traj: trajOf(raw), bytes: end - start });
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
