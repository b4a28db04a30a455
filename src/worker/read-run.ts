import { byteOffsets, decodeResultsBytes, InspectSession, type FileLike, type RunSource } from '../core/contract';
import { byteStore, type ByteStore } from './byte-store';
import { loadStoredFile } from './data-sources';
import { decodeSharedEpisode, splitSharedText } from './shared-episode';
import { sampleNames, sampleRunText } from './sample';

export const sourceLabel = (s: RunSource): string =>
  s.kind === 'sample' ? `${s.name}.json` : s.kind === 'file' ? s.file.name : s.kind === 'stored' ? s.name : s.kind === 'shared' ? 'the episode shared in the link' : s.url;

/**
 * Episodes read again from the file's bytes (by UTF-8 byte range): the text need not stay in
 * memory. Null when the text is not exactly the bytes' UTF-8 (UTF-16, or bytes that were not UTF-8
 * and became U+FFFD).
 */
function byteSlices(bytes: Uint8Array, text: string): ((byteStart: number, byteEnd: number) => string) | null {
  if (text.includes('\ufffd')) return null;
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) return null;
  const body = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  return (start, end) => decoder.decode(body.subarray(start, end));
}

export interface OpenedRun {
  readonly session: InspectSession;
  readonly label: string;
  /** The context line of a version 2 shared link (file name, index, notes, edits), read on the page. */
  readonly shared?: string;
}

export interface OpenHooks {
  /** Full evaluations the session keeps (see `SessionMemory.keptEvaluations`). */
  readonly keptEvaluations: number;
  /**
   * The text of the file's first bytes (up to `PREFIX_BYTES`) as soon as they are read, to guess the
   * domain and start finding its data while the rest is read.
   */
  readonly prefix: (text: string) => void;
  /** False once the run is no longer wanted: reading stops, and `openRun` gives null. */
  readonly wanted: () => boolean;
}

/** How much of a file's beginning `prefix` gets. */
const PREFIX_BYTES = 1 << 20;

/**
 * A byte stream read as it arrives: the bytes go to a `ByteStore` (episodes are read again from
 * there) while `InspectSession.reader` parses each episode once; no text of the whole file is made.
 * A file that is not a plain UTF-8 list of episodes (damage, UTF-16, another format) is read from
 * its whole text once every byte is in, as before, so its damage is located and explained.
 */
async function fromStream(stream: ReadableStream<Uint8Array>, label: string, hooks: OpenHooks): Promise<OpenedRun | null> {
  const store: ByteStore = byteStore();
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const memory = { keptEvaluations: hooks.keptEvaluations, headers: true };
  const reader = InspectSession.reader((start, end) => decoder.decode(store.read(start, end)), {}, undefined, memory);
  let plain = true;
  let head: Uint8Array[] | null = [];
  let headBytes = 0;
  const source = stream.getReader();
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await source.read();
      } catch (e) {
        throw new Error(`reading it stopped part-way (${e instanceof Error ? e.message : String(e)}): was the file changed or removed while it was read? Open it again`);
      }
      const { done, value } = next;
      if (done) break;
      if (!hooks.wanted()) {
        void source.cancel().catch(() => undefined);
        return null;
      }
      store.append(value);
      if (plain) plain = reader.push(value);
      if (head) {
        head.push(value);
        headBytes += value.length;
        if (headBytes >= PREFIX_BYTES) {
          hooks.prefix(decodeResultsBytes(concat(head).subarray(0, PREFIX_BYTES)));
          head = null;
        }
      }
    }
  } finally {
    source.releaseLock();
  }
  if (head) hooks.prefix(decodeResultsBytes(concat(head)));
  store.seal();
  const session = plain ? reader.session() : null;
  if (session) return { session, label };
  // Not a plain list: the careful reader on the whole text, the bytes kept for re-reading when they are the text's UTF-8.
  const bytes = store.all();
  const text = decodeResultsBytes(bytes);
  const slices = byteSlices(bytes, text);
  return { session: new InspectSession(text, {}, undefined, { ...memory, byteOffset: byteOffsets(bytes), ...(slices && { elementText: slices }) }), label };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let k = 0;
  for (const p of parts) {
    out.set(p, k);
    k += p.length;
  }
  return out;
}

/**
 * A file's bytes as a stream: a DOM File's own `stream()` (one read of the file from start to end,
 * so a file removed or replaced on disk meanwhile is still read whole, as one `arrayBuffer()` would
 * be); a file-like object without one gives its bytes at once.
 */
function streamOf(file: FileLike): ReadableStream<Uint8Array> {
  const blob = file as Partial<Blob>;
  if (typeof blob.stream === 'function') return blob.stream.call(file) as ReadableStream<Uint8Array>;
  return new ReadableStream({
    async start(controller) {
      controller.enqueue(new Uint8Array(await file.arrayBuffer()));
      controller.close();
    },
  });
}

function fromText(text: string, label: string, hooks: OpenHooks, shared?: string): OpenedRun {
  hooks.prefix(text.slice(0, PREFIX_BYTES));
  return { session: new InspectSession(text, {}, undefined, { keptEvaluations: hooks.keptEvaluations, headers: true }), label, ...(shared !== undefined && { shared }) };
}

/** The results file from wherever the page says it is, read into a session (null: no longer wanted). */
export async function openRun(source: RunSource, hooks: OpenHooks): Promise<OpenedRun | null> {
  switch (source.kind) {
    case 'sample': {
      const text = await sampleRunText(source.name);
      if (text === null) throw new Error(`there is no sample run named "${source.name}" (have: ${sampleNames.join(', ') || 'none'})`);
      return fromText(text, `${source.name}.json`, hooks);
    }
    case 'file':
      return fromStream(streamOf(source.file), source.file.name, hooks);
    case 'stored': {
      const file = await loadStoredFile();
      if (!file || file.name !== source.name) throw new Error('it is no longer kept in this browser; open the file again');
      return fromStream(streamOf(file), file.name, hooks);
    }
    case 'shared': {
      const { episode, context } = splitSharedText(decodeSharedEpisode(source.payload));
      return fromText(episode, 'the episode shared in the link', hooks, context ?? undefined);
    }
    case 'url': {
      let res: Response;
      try {
        res = await fetch(source.url);
      } catch (e) {
        throw new Error(`could not fetch it (${e instanceof Error ? e.message : String(e)}; offline, or the server does not allow cross-origin requests)`);
      }
      if (!res.ok) throw new Error(`the server answered HTTP ${res.status}`);
      if (!res.body) return fromText(decodeResultsBytes(new Uint8Array(await res.arrayBuffer())), source.url, hooks);
      return fromStream(res.body, source.url, hooks);
    }
  }
}
