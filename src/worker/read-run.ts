import { decodeResultsBytes, type FileLike, type RunSource } from '../core/contract';
import { loadStoredFile } from './data-sources';
import { decodeSharedEpisode, splitSharedText } from './shared-episode';
import { sampleNames, sampleRunText } from './sample';

export const sourceLabel = (s: RunSource): string =>
  s.kind === 'sample' ? `${s.name}.json` : s.kind === 'file' ? s.file.name : s.kind === 'stored' ? s.name : s.kind === 'shared' ? 'the episode shared in the link' : s.url;

/**
 * Reads episodes again from the file's bytes (by UTF-8 byte range), so the text need not stay in
 * memory: the bytes are as long as an ASCII text and half a text with any character beyond
 * Latin-1 (V8 then keeps two bytes per character). Not the file on disk: it may change or go away
 * while the run is open. Null when the text is not exactly the bytes' UTF-8 (UTF-16, or bytes
 * that were not UTF-8 and became U+FFFD).
 */
function byteSlices(bytes: Uint8Array, text: string): ((byteStart: number, byteEnd: number) => string) | null {
  if (text.includes('\ufffd')) return null;
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) return null;
  const body = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  return (start, end) => decoder.decode(body.subarray(start, end));
}

export interface ReadRun {
  readonly text: string;
  readonly label: string;
  /** For a local file: where an episode's text can be read again without keeping `text` (see `byteSlices`). */
  readonly slices: ((byteStart: number, byteEnd: number) => string) | null;
  /** The context line of a version 2 shared link (file name, index, notes, edits), read on the page. */
  readonly shared?: string;
}

async function fromFile(file: FileLike, label: string): Promise<ReadRun> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const text = decodeResultsBytes(bytes);
  return { text, label, slices: byteSlices(bytes, text) };
}

/** The text of a results file from wherever the page says it is. */
export async function readRun(source: RunSource): Promise<ReadRun> {
  switch (source.kind) {
    case 'sample': {
      const text = await sampleRunText(source.name);
      if (text === null) throw new Error(`there is no sample run named "${source.name}" (have: ${sampleNames.join(', ') || 'none'})`);
      return { text, label: `${source.name}.json`, slices: null };
    }
    case 'file':
      return fromFile(source.file, source.file.name);
    case 'stored': {
      const file = await loadStoredFile();
      if (!file || file.name !== source.name) throw new Error('it is no longer kept in this browser; open the file again');
      return fromFile(file, file.name);
    }
    case 'shared': {
      const { episode, context } = splitSharedText(decodeSharedEpisode(source.payload));
      return { text: episode, label: 'the episode shared in the link', slices: null, ...(context !== null && { shared: context }) };
    }
    case 'url': {
      let res: Response;
      try {
        res = await fetch(source.url);
      } catch (e) {
        throw new Error(`could not fetch it (${e instanceof Error ? e.message : String(e)}; offline, or the server does not allow cross-origin requests)`);
      }
      if (!res.ok) throw new Error(`the server answered HTTP ${res.status}`);
      return { text: decodeResultsBytes(new Uint8Array(await res.arrayBuffer())), label: source.url, slices: null };
    }
  }
}
