import { decodeResultsBytes, type FileLike, type RunSource } from '../core/contract';
import { loadStoredFile } from './data-sources';
import { decodeSharedEpisode } from './shared-episode';
import { sampleNames, sampleRunText } from './sample';

export const sourceLabel = (s: RunSource): string =>
  s.kind === 'sample' ? `${s.name}.json` : s.kind === 'file' ? s.file.name : s.kind === 'stored' ? s.name : s.kind === 'shared' ? 'the episode shared in the link' : s.url;

type SyncReader = new () => { readAsText(blob: Blob, encoding?: string): string };
const FileReaderSyncCtor = (globalThis as { FileReaderSync?: SyncReader }).FileReaderSync;

/**
 * Reads episodes again from the file itself (by UTF-8 byte range, synchronously: FileReaderSync
 * exists in workers), so the text need not stay in memory. Null when the text is not exactly the
 * file's UTF-8 (UTF-16, or bytes that were not UTF-8 and became U+FFFD), or FileReaderSync is missing.
 */
function fileSlices(file: FileLike, bytes: Uint8Array, text: string): ((byteStart: number, byteEnd: number) => string) | null {
  if (!FileReaderSyncCtor || !(file instanceof Blob) || text.includes('\ufffd')) return null;
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) return null;
  const offset = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const reader = new FileReaderSyncCtor();
  return (start, end) => reader.readAsText(file.slice(offset + start, offset + end), 'utf-8');
}

export interface ReadRun {
  readonly text: string;
  readonly label: string;
  /** For a local file: where an episode's text can be read again without keeping `text`. */
  readonly slices: ((byteStart: number, byteEnd: number) => string) | null;
}

async function fromFile(file: FileLike, label: string): Promise<ReadRun> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const text = decodeResultsBytes(bytes);
  return { text, label, slices: fileSlices(file, bytes, text) };
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
    case 'shared':
      return { text: decodeSharedEpisode(source.payload), label: 'the episode shared in the link', slices: null };
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
