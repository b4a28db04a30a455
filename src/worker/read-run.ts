import { decodeResultsBytes, InspectSession, readTau2Folder, type SessionReader } from '../core/contract';
import { readShareContext, type SharedContext } from '../protocol/share-context';
import type { FileLike, RunSource } from '../protocol/wire-types';
import { byteStore, concatBytes, type ByteStore } from './byte-store';
import { loadStoredFile } from './data-sources';
import { decodeSharedEpisode, splitSharedText } from './shared-episode';
import { sampleFolder, sampleFolderFileUrl, sampleLabel, sampleNames, sampleRunText } from './sample';
import type { ObjectReader, ObjectRun } from './object-run';
import { TAU2_READER } from './tau2/read';

export const sourceLabel = (s: RunSource): string =>
  s.kind === 'sample'
    ? sampleLabel(s.name)
    : s.kind === 'file'
      ? s.file.name
      : s.kind === 'stored'
        ? s.name
        : s.kind === 'shared'
          ? 'the episode shared in the link'
          : s.kind === 'folder'
            ? `${s.name}/`
            : s.url;

/** The readers of such runs, asked in turn about a text that opens with `{` (a τ-bench file is a list, read as it streams). */
const OBJECT_READERS: readonly ObjectReader[] = [TAU2_READER];

/** Whether a file's first bytes look like a run read whole (then no τ-bench data is looked for early). */
export const looksObjectRun = (prefix: string): boolean => OBJECT_READERS.some((r) => r.looks(prefix));

/** The run in a whole text of one of `OBJECT_READERS`' benchmarks, or null for anything else (a τ-bench file, read as before). */
function objectRun(text: string): ObjectRun | null {
  if (!/^\uFEFF?\s*\{/.test(text)) return null;
  for (const reader of OBJECT_READERS) {
    const r = reader.read(text);
    if (r) return r;
  }
  return null;
}

export type OpenedRun =
  | {
      readonly kind: 'tau-bench';
      readonly session: InspectSession;
      readonly tau2?: undefined;
      readonly label: string;
      /** The session is the early one handed to `OpenHooks.early` (now complete); else a new one. */
      readonly early?: boolean;
      /** The context a version 2 shared link carried (file name, index, step, notes, edits), checked field by field. */
      readonly shared?: SharedContext;
      /** The file's bytes, for a file read as it streamed in (its episodes' `episodeRange`s are in them). */
      readonly bytes?: ByteStore;
    }
  /** `file`: a run folder's other files by their path inside it (a simulation's audio), read only when asked for. */
  | (ObjectRun & {
      readonly session?: undefined;
      readonly label: string;
      readonly shared?: SharedContext;
      readonly file?: (path: string) => Promise<Blob | null>;
    });

/** The first byte after a UTF-8 BOM and whitespace is `{`. */
function opensObject(b: Uint8Array): boolean {
  let i = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  while (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09) i++;
  return b[i] === 0x7b;
}

export interface OpenHooks {
  /** Full evaluations the session keeps (see `SessionMemory.keptEvaluations`). */
  readonly keptEvaluations: number;
  /**
   * The text of the file's first bytes as soon as they are read, to guess the domain and start finding its data while
   * the rest is read: its first `HEAD_BYTES`, and again its first `PREFIX_BYTES` when that did not tell (false), and
   * what there is of them at the end of a shorter file.
   */
  readonly prefix: (text: string) => boolean;
  /** False once the run is no longer wanted: reading stops, and `openRun` gives null. */
  readonly wanted: () => boolean;
  /** How much has been read, a few times a second while a big file is read (`total` null when unknown). */
  readonly progress?: (loaded: number, total: number | null) => void;
  /**
   * A session on the episodes read so far, once there is one (see `SessionReader.early`): judging may
   * start while the rest is read. `grew` tells how many episodes it holds as more are read.
   */
  readonly early?: (session: InspectSession, bytes: ByteStore) => void;
  readonly grew?: (count: number) => void;
  /** Lets other work (judging, the page's requests) run between pieces of what was read. */
  readonly pause?: () => Promise<void>;
}

/** Bytes parsed between two pauses (about 50 episodes of a usual file: tens of milliseconds). */
const PUSH_BYTES = 1 << 20;
const FIRST_PUSH_BYTES = 128 << 10;

/** How often reading reports its progress (each report is a render of the page, as each batch of verdicts is). */
const PROGRESS_MS = 250;

/** How much of a file's beginning `prefix` gets first, and at most. */
const HEAD_BYTES = 64 << 10;
const PREFIX_BYTES = 1 << 20;

/**
 * A byte stream read as it arrives: the bytes go to a `ByteStore` (episodes are read again from
 * there) while `InspectSession.reader` parses each episode once; no text of the whole file is made.
 * A file that is not a plain UTF-8 list of episodes (damage, UTF-16, another format) is read from
 * its whole text once every byte is in, as before, so its damage is located and explained.
 */
async function fromStream(stream: ReadableStream<Uint8Array>, label: string, hooks: OpenHooks, total: number | null): Promise<OpenedRun | null> {
  const store: ByteStore = byteStore();
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const memory = { keptEvaluations: hooks.keptEvaluations, headers: true, keysLater: true };
  const reader = InspectSession.reader((start, end) => decoder.decode(store.read(start, end)), {}, undefined, memory);
  let plain = true;
  const handed: { early: InspectSession | null; since: number; opened: boolean } = { early: null, since: 0, opened: false };
  let head: Uint8Array[] | null = [];
  let headBytes = 0;
  let offered = false;
  const source = stream.getReader();
  let loaded = 0;
  // The first chunk is reported at once, later ones a few times a second.
  let told = -Infinity;
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await source.read();
      } catch (e) {
        throw new Error(
          `reading it stopped part-way (${e instanceof Error ? e.message : String(e)}): was the file changed or removed while it was read? Open it again`,
        );
      }
      const { done, value } = next;
      if (done) break;
      if (!hooks.wanted()) {
        void source.cancel().catch(() => undefined);
        return null;
      }
      store.append(value);
      loaded += value.length;
      if (hooks.progress && performance.now() - told >= PROGRESS_MS) {
        told = performance.now();
        hooks.progress(loaded, total);
      }
      // The first 64 KB name the likely domain (its data is looked for meanwhile) before any episode is judged; else the
      // first megabyte.
      if (head) {
        head.push(value);
        headBytes += value.length;
        if (headBytes >= (offered ? PREFIX_BYTES : HEAD_BYTES)) {
          const told = hooks.prefix(decodeResultsBytes(concatBytes(head).subarray(0, PREFIX_BYTES)));
          offered = true;
          if (told || headBytes >= PREFIX_BYTES) head = null;
        }
      }
      if (plain) plain = await pushInPieces(reader, value, hooks, handed, store, loaded === value.length);
    }
  } finally {
    source.releaseLock();
  }
  if (head) hooks.prefix(decodeResultsBytes(concatBytes(head)));
  store.seal();
  const session = plain ? reader.session() : null;
  if (session) return { kind: 'tau-bench', session, label, early: session === handed.early, bytes: store };
  // A results object (τ²'s) is read whole (one JSON object); its bytes stay in the store meanwhile.
  const all = store.all();
  const whole = opensObject(all) ? objectRun(decodeResultsBytes(all)) : null;
  if (whole) return { ...whole, label };
  // Not a plain list: the careful reader on the whole text.
  return { kind: 'tau-bench', session: InspectSession.fromWholeText(all, {}, undefined, memory), label };
}

/**
 * Pushes a chunk to the reader a piece at a time, pausing before each (`hooks.pause`; but the file's first), and hands on
 * the early session and how many episodes it holds. False: the file is not a plain list.
 */
async function pushInPieces(
  reader: SessionReader,
  chunk: Uint8Array,
  hooks: OpenHooks,
  told: { early: InspectSession | null; since: number; opened: boolean },
  store: ByteStore,
  /** The file's first bytes: its first piece is small, so the run opens (and its data is looked for) after a few episodes, not a megabyte. */
  first: boolean,
): Promise<boolean> {
  for (let at = 0; at < chunk.length;) {
    // Other work goes first every megabyte parsed, and right after the piece that opened the run (reading may then be
    // held: see `ReadingHold`), a read's first piece too (a stream's chunks may be smaller than a piece).
    if (hooks.pause && (told.opened || told.since >= PUSH_BYTES)) {
      await hooks.pause();
      told.since = 0;
      told.opened = false;
    }
    const piece = first && at === 0 ? FIRST_PUSH_BYTES : PUSH_BYTES;
    const before = reader.count;
    const bytes = chunk.subarray(at, at + piece);
    if (!reader.push(bytes)) return false;
    at += piece;
    told.since += bytes.length;
    if (hooks.early && reader.count > before) {
      if (told.early) hooks.grew?.(reader.count);
      else if ((told.early = reader.early())) {
        told.opened = true;
        hooks.early(told.early, store);
      }
    }
  }
  return true;
}

/**
 * Bytes read from a file at once. A file up to this size is read whole, and its first 64 KB beside it, both asked for at
 * once: they come first and name the domain, so the run's data is looked for — and a kept DB read back — while the rest
 * comes (reading a 4 MB file whole took 20–35 ms before the domain was known, its first 64 KB 5–20; reading the rest as
 * a slice from 64 KB on took longer than the whole, which a τ² file, read whole, waited for). A bigger one is read in
 * slices growing to this size, each a fresh read of the file. A file removed or replaced on disk between two reads says
 * so (see `fromStream`).
 */
const FILE_SLICE_BYTES = 16 << 20;
const FIRST_SLICE_BYTES = 1 << 20;

/** A file's bytes as a stream of slices (see `FILE_SLICE_BYTES`); a file-like object that cannot be sliced gives its bytes at once. */
function streamOf(file: FileLike): ReadableStream<Uint8Array> {
  const blob = file as Partial<Blob>;
  let at = 0;
  // The rest of a file up to FILE_SLICE_BYTES (read whole), asked for with its first 64 KB: two reads at once.
  let rest: { readonly at: number; readonly bytes: Promise<Uint8Array> } | null = null;
  const read = (from: number, size: number): Promise<Uint8Array> =>
    (blob.slice!.call(file, from, from + size) as Blob).arrayBuffer().then((b) => new Uint8Array(b));
  return new ReadableStream({
    async pull(controller) {
      if (typeof blob.slice !== 'function') {
        controller.enqueue(new Uint8Array(await file.arrayBuffer()));
        controller.close();
        return;
      }
      let part: Uint8Array;
      if (rest !== null && rest.at === at) {
        part = await rest.bytes;
        rest = null;
      } else if (file.size > FILE_SLICE_BYTES) {
        // A big file's first slices are small and grow (1, 2, 4, 8, then 16 MB): its first episodes are judged at once,
        // and each slice is read while the one before it is parsed, never a long wait for a big one at the start.
        part = await read(at, Math.min(FILE_SLICE_BYTES, Math.max(FIRST_SLICE_BYTES, 2 ** Math.floor(Math.log2(at + FIRST_SLICE_BYTES)))));
      } else if (at === 0 && file.size > HEAD_BYTES) {
        const head = read(0, HEAD_BYTES);
        const all = read(0, FILE_SLICE_BYTES);
        // (Not awaited when reading stops first.)
        all.catch(() => undefined);
        const first = await head;
        if (opensObject(first)) {
          // A results object (τ²'s) is parsed whole, so nothing is gained by its first bytes alone: the file as one piece,
          // as it was read before (two pieces cost the first τ² verdict ~40 ms, measured).
          part = await all;
        } else {
          const bytes = all.then((whole) => {
            // (Two reads of the same bytes: a file replaced on disk between them is not read as a mix of both.)
            if (whole.length < first.length || whole.subarray(0, first.length).some((b, i) => b !== first[i]))
              throw new Error('the file changed between two reads');
            return whole.subarray(first.length);
          });
          bytes.catch(() => undefined);
          rest = { at: HEAD_BYTES, bytes };
          part = first;
        }
      } else part = await read(at, FILE_SLICE_BYTES);
      at += part.length;
      if (part.length > 0) controller.enqueue(part);
      if (part.length === 0 || at >= file.size) controller.close();
    },
  });
}

function fromText(text: string, label: string, hooks: OpenHooks, shared?: SharedContext): OpenedRun {
  const whole = objectRun(text);
  if (whole) return { ...whole, label, ...(shared !== undefined && { shared }) };
  void hooks.prefix(text.slice(0, PREFIX_BYTES));
  return {
    kind: 'tau-bench',
    session: new InspectSession(text, {}, undefined, { keptEvaluations: hooks.keptEvaluations, headers: true, keysLater: true }),
    label,
    ...(shared !== undefined && { shared }),
  };
}

/** The results file from wherever the page says it is, read into a session (null: no longer wanted). */
export async function openRun(source: RunSource, hooks: OpenHooks): Promise<OpenedRun | null> {
  switch (source.kind) {
    case 'sample': {
      const folder = await sampleFolder(source.name);
      if (folder)
        return {
          kind: 'tau2',
          tau2: readTau2Folder(folder.results, folder.simulations),
          label: sampleLabel(source.name),
          file: async (path) => {
            const url = sampleFolderFileUrl(source.name, path);
            if (url === null) return null;
            const res = await fetch(url);
            return res.ok ? res.blob() : null;
          },
        };
      const text = await sampleRunText(source.name);
      if (text === null) throw new Error(`there is no sample run named "${source.name}" (have: ${sampleNames.join(', ') || 'none'})`);
      return fromText(text, `${source.name}.json`, hooks);
    }
    case 'file':
      return fromStream(streamOf(source.file), source.file.name, hooks, source.file.size);
    case 'stored': {
      const file = await loadStoredFile();
      if (!file || file.name !== source.name) throw new Error('it is no longer kept in this browser; open the file again');
      return fromStream(streamOf(file), file.name, hooks, file.size);
    }
    case 'shared': {
      const { episode, context } = splitSharedText(decodeSharedEpisode(source.payload));
      return fromText(episode, 'the episode shared in the link', hooks, context === null ? undefined : readShareContext(context));
    }
    case 'folder': {
      // results.json at the folder's top, simulations/<id>.json beside it (leaderboard submissions' layout).
      const top = (f: { path: string }): string[] => f.path.replace(/\\/g, '/').split('/').slice(1);
      const results = source.files.find((f) => top(f).join('/') === 'results.json');
      if (!results) throw new Error(`“${source.name}” has no results.json at its top (a τ² run folder holds results.json and simulations/<id>.json)`);
      const sims = source.files.filter((f) => {
        const p = top(f);
        return p.length === 2 && p[0] === 'simulations' && p[1]!.endsWith('.json');
      });
      const texts = await Promise.all(sims.map(async (f) => ({ name: top(f)[1]!, text: await f.file.text() })));
      texts.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const byPath = new Map(source.files.map((f) => [top(f).join('/'), f.file] as const));
      return {
        kind: 'tau2',
        tau2: readTau2Folder(await results.file.text(), texts),
        label: `${source.name}/`,
        // A picked file is a Blob already: handed on as it is, never read here.
        file: async (path) => {
          const f = byPath.get(path);
          return f === undefined ? null : f instanceof Blob ? f : new Blob([await f.arrayBuffer()]);
        },
      };
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
      const length = Number(res.headers.get('content-length'));
      // A compressed response's length is not what the body stream gives.
      const total = Number.isFinite(length) && length > 0 && !res.headers.get('content-encoding') ? length : null;
      return fromStream(res.body, source.url, hooks, total);
    }
  }
}
