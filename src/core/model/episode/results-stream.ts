/** The streaming reader of a results file: episodes parsed from the bytes as they arrive. */
import { parseListElement } from '../../py/json-parse';
import { ListSplitter } from '../../py/json-split';
import { readEpisode } from './episode-record';
import { isMessage, lazyRecord, Places, reparser, type Reparser, type ResultsFile } from './lazy-records';
import type { EpisodeRecord } from './types';

/**
 * Reads a results file from its bytes as they arrive, never holding its whole text: each episode is
 * decoded and parsed on its own, seen by `visit`, and kept as a lazy record read again through
 * `elementText` (by absolute byte range in the bytes pushed). For a plain, undamaged list of
 * episodes in UTF-8 it gives the same records as `readResults(text, { lazy: true })`; for
 * anything else — damage, UTF-16, bytes that are not UTF-8 (or U+FFFD in the text), a bare message
 * list, a single episode, an empty list — `end()` returns null and the caller reads the whole text
 * with `readResults`, which locates and explains what is wrong. `push` returning false says that
 * already (the rest of the bytes need not be looked at, but the whole text is needed).
 */
export class ResultsStream {
  private readonly records: EpisodeRecord[] = [];
  private readonly splitter: ListSplitter;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private readonly read: Reparser;
  private readonly places: Places;
  private file: ResultsFile | null = null;

  constructor(
    elementText: (byteStart: number, byteEnd: number) => string,
    private readonly visit: (record: EpisodeRecord) => void = () => undefined,
  ) {
    this.read = reparser(elementText);
    this.places = new Places(elementText);
    this.splitter = new ListSplitter((bytes, start, end) => this.element(bytes, start, end));
  }

  push(chunk: Uint8Array): boolean {
    return this.splitter.push(chunk);
  }

  end(): ResultsFile | null {
    if (!this.splitter.end()) return null;
    return this.sofar();
  }

  /**
   * The episodes read so far, as a file whose `records` is this reader's own list: it grows while
   * bytes are pushed (a session may judge the first episodes while the rest is read; see
   * `InspectSession.reader`). The same object `end()` gives once the file is read.
   */
  sofar(): ResultsFile {
    return (this.file ??= { records: this.records, kind: 'tau-bench-results', notes: [], episodeText: this.places.text, episodeRange: this.places.range });
  }

  /** How many episodes have been read. */
  get count(): number {
    return this.records.length;
  }

  private element(parts: readonly Uint8Array[], start: number, end: number): boolean {
    let text = '';
    try {
      // Pieces that lie one after another in one buffer (views of the bytes read) are decoded as one:
      // a long episode is then one flat string, not a chain of pieces flattened into a copy.
      const whole = contiguous(parts);
      if (whole) text = this.decoder.decode(whole);
      else {
        for (let k = 0; k < parts.length - 1; k++) text += this.decoder.decode(parts[k], { stream: true });
        text += this.decoder.decode(parts.at(-1));
      }
    } catch {
      return false;
    }
    if (text.includes('\ufffd')) return false;
    const parsed = parseListElement(text);
    if (parsed === null || isMessage(parsed.value)) return false;
    const r = readEpisode(parsed.value, this.records.length);
    this.visit(r);
    this.places.set(r.index, start, end);
    // The parse just made is the one the judging right behind the reading would make again from the same bytes.
    this.read.seed(start, end, parsed.value);
    this.records.push(lazyRecord(r, this.read, start, end));
    return true;
  }
}

/** The parts as one view when each follows the one before in the same buffer, else null. */
function contiguous(parts: readonly Uint8Array[]): Uint8Array | null {
  const first = parts[0];
  if (!first || parts.length === 1) return first ?? null;
  let end = first.byteOffset + first.length;
  for (let k = 1; k < parts.length; k++) {
    const p = parts[k]!;
    if (p.buffer !== first.buffer || p.byteOffset !== end) return null;
    end += p.length;
  }
  return new Uint8Array(first.buffer, first.byteOffset, end - first.byteOffset);
}
