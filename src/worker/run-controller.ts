import { guessDataCommitFromText, guessDomainFromText, InspectSession, prepareSha256, type Domain } from '../core/contract';
import type { FolderFile, RunSlot, RunSource } from '../protocol/wire-types';
import type { BenchmarkKind } from '../core/contract';
import { storeFile } from './data-sources';
import { DataLocator, type BenchmarkData, type Progress } from './data-locator';
import { parseNotesFile } from './notes-import';
import { PersistentVersions, type ReadAhead } from './persistent-cache';
import { post, yieldToMessages } from './post';
import type { ObjectRun } from './object-run';
import { looksObjectRun, openRun, sourceLabel, type OpenedRun } from './read-run';
import { ReadingHold } from './reading-hold';
import type { RunHandle } from './run-handle';
import type { ByteStore } from './byte-store';
import { TauBenchData } from './tau-bench-data';
import { TauBenchRun, type EarlyData } from './tau-bench-run';
import { Tau2Data } from './tau2/data';
import { Tau2RunHandle } from './tau2/run';

/**
 * The longest reading waits (ms) for the run's first verdict when that verdict is made from a parsed DB kept
 * from an earlier visit: reading the file meanwhile would share the browser's storage reads and this thread
 * with reading that DB back, and the first verdict would come later (the rest of the file is read after).
 */
const FIRST_VERDICT_HOLD_MS = 1000;

/** How much of the file's first megabyte the domain is guessed from first. */
const GUESS_CHARS = 128 << 10;

/** Full evaluations kept for views and what-ifs (the rest is recomputed when asked for again). */
const KEPT_EVALUATIONS = 24;

/** The WebAssembly sha256 (the pure-TS fallback works too, only slower). */
const hashReady = prepareSha256().catch(() => undefined);

/** A handle made for a run read whole: `open` announces it (`run-opened`) and begins judging. */
type ObjectRunHandle = RunHandle & { open(label: string, shared: OpenedRun['shared']): Promise<void> };

/** Each benchmark's handle for a run read whole (`ObjectRun`), by its kind (τ-bench's runs are judged as they stream in, below). */
const OBJECT_HANDLES: {
  readonly [K in ObjectRun['kind']]: (c: RunController, slot: RunSlot, run: number, r: Extract<OpenedRun, { kind: K }>, sample: boolean) => ObjectRunHandle;
} = {
  tau2: (c, slot, run, r, sample) => new Tau2RunHandle(slot, run, r.tau2, sample, c.tau2, r.file),
};

/**
 * The runs the page opened, one per slot (`a` the open run, `b` one opened beside it to compare), whatever their
 * benchmark: a file is read once (`openRun`) and handed to the handle of the benchmark that recognises it — a
 * `TauBenchRun` or a `Tau2RunHandle` — and every request that names a run goes to that run's handle.
 */
export class RunController {
  readonly locator = new DataLocator();
  readonly tauBench = new TauBenchData(this.locator);
  readonly tau2 = new Tau2Data(this.locator);
  private readonly persisted = new PersistentVersions();
  private readonly slots: Record<RunSlot, RunHandle | null> = { a: null, b: null };
  /** The runs open, by id (at most one per slot). */
  private readonly runs = new Map<number, RunHandle>();
  /** The run id the page asked for last in each slot (null once closed): an open overtaken by a later one, or closed while it was read, is dropped. */
  private readonly wanted: Record<RunSlot, number | null> = { a: null, b: null };

  constructor() {
    this.locator.openCache();
  }

  /** The open run with this id, if any. */
  at(run: number): RunHandle | null {
    return this.runs.get(run) ?? null;
  }

  /** Every open run. */
  all(): RunHandle[] {
    return [...this.runs.values()];
  }

  /** `run` becomes the slot's (the run there before is closed). */
  private install(h: RunHandle): void {
    const before = this.slots[h.slot];
    if (before) {
      before.close();
      this.runs.delete(before.run);
    }
    this.slots[h.slot] = h;
    this.runs.set(h.run, h);
  }

  close(slot: RunSlot): void {
    this.wanted[slot] = null;
    const h = this.slots[slot];
    if (h) {
      h.close();
      this.runs.delete(h.run);
    }
    this.slots[slot] = null;
  }

  /** A notes import read and checked here, off the page's thread; answered with its records in chunks (`parse-notes`). */
  async parseNotes(id: number, file: Blob): Promise<void> {
    const r = await parseNotesFile(file);
    post(
      { type: 'parse-notes', id, ...r },
      r.chunks.map((c) => c.buffer as ArrayBuffer),
    );
  }

  /** A request about an episode or a run: to the run's handle (a run closed meanwhile answers nothing). */
  withRun(run: number, act: (h: RunHandle) => void): void {
    const h = this.at(run);
    if (h) act(h);
  }

  /** Each benchmark's data, by its kind. */
  private readonly data: Readonly<Record<BenchmarkKind, BenchmarkData>> = { 'tau-bench': this.tauBench, tau2: this.tau2 };

  /**
   * A data folder picked for one benchmark (`benchmark`), or dropped (null: for whichever benchmark's data it holds). It
   * becomes the folder of each benchmark whose data files it holds; another benchmark keeps its folder. The runs of a
   * benchmark that took it look for their data in it; those of the benchmark it was picked for, when it holds none of
   * that data (or of any, when dropped), say so. Returns the benchmarks that took it.
   */
  useFolder(name: string, files: readonly FolderFile[], benchmark: BenchmarkKind | null): BenchmarkKind[] {
    const meant = benchmark === null ? null : this.data[benchmark];
    const took = this.locator.useFolder(name, files, meant ? [meant] : Object.values(this.data));
    const kinds = Object.values(this.data).filter((d) => took.includes(d));
    for (const d of kinds) d.forgetFolder();
    for (const h of this.all()) {
      if (kinds.includes(h.data)) h.folderPicked(name, true);
      else if (meant === h.data || took.length === 0) h.folderPicked(name, false);
    }
    return kinds.map((d) => d.kind);
  }

  /** The user agreed to fetch data from a URL base: runs still without data look again. */
  useDataUrl(base: string): void {
    this.locator.agreedBases.add(base.replace(/\/+$/, ''));
    for (const h of this.all()) h.retryData(true);
  }

  /** Opens a run into `slot` (the run in the other slot stays). */
  async open(slot: RunSlot, run: number, source: RunSource): Promise<void> {
    this.wanted[slot] = run;
    const wanted = (): boolean => this.wanted[slot] === run;
    // The run open in the slot so far stops evaluating at once; it goes on if this one cannot be opened.
    const previous = this.slots[slot];
    const resume = previous?.hold() ?? ((): void => undefined);
    const resumePrevious = (): void => {
      if (previous && this.slots[slot] === previous && wanted()) resume();
    };
    let label = sourceLabel(source);
    let early: EarlyData | null = null;
    let prefetched: Promise<void> = Promise.resolve();
    let ahead: ReadAhead | null = null;
    // A big plain τ-bench file is judged while it is read: the run opens on its first episodes (`installing`).
    let installing: Promise<TauBenchRun | null> | null = null;
    let installed: TauBenchRun | null = null;
    // While the first verdict is made from a kept DB, reading waits for it (at most FIRST_VERDICT_HOLD_MS).
    const hold = new ReadingHold();
    let r: OpenedRun | null;
    try {
      // Reads the file as it arrives (episodes parsed one by one, no whole text for a plain file);
      // as soon as its first bytes are in, data for the likely τ-bench domain is looked for meanwhile.
      r = await openRun(source, {
        keptEvaluations: KEPT_EVALUATIONS,
        wanted,
        pause: async () => {
          await hold.wait();
          await yieldToMessages();
        },
        progress: (loaded: number, total: number | null) => post({ type: 'run-progress', run, loaded, total }),
        prefix: (text) => {
          // The first episodes name the domain (each scan of the whole megabyte costs a millisecond or two, and this
          // guess is looked at before the kept DB is asked for); the megabyte when they do not tell.
          if (looksObjectRun(text)) return true;
          const guess: Domain | null = guessDomainFromText(text.slice(0, GUESS_CHARS)) ?? guessDomainFromText(text);
          // (Asked again with the first megabyte when the first 64 KB do not tell.)
          if (!guess) return false;
          const progress =
            (l: string): Progress =>
            (p) =>
              post({ type: 'data-progress', run, label: l, ...p });
          early = { domain: guess, located: this.tauBench.locate(guess, source.kind === 'sample', progress, () => undefined).catch(() => null) };
          // And the parsed DB kept from an earlier visit: IndexedDB reads it while the file is read (none is kept of the sample's).
          if (source.kind !== 'sample') {
            ahead = this.persisted.prefetch(early.located, guess, guessDataCommitFromText(text));
            prefetched = ahead.ready;
          }
          return true;
        },
        early: (session, bytes) => {
          // Held from now on, before anything is awaited: the next piece is parsed as soon as this returns (before, the hold
          // began once the run was installed, and the file's first megabyte after its first piece was parsed meanwhile).
          const kept = (ahead as ReadAhead | null)?.kept;
          if (kept) hold.start(kept, FIRST_VERDICT_HOLD_MS);
          installing = (async () => {
            await hashReady;
            if (!wanted()) {
              hold.done();
              return null;
            }
            installed = this.tauBenchRun(slot, run, source, session, label, undefined, bytes);
            void installed.firstVerdict.then(() => hold.done());
            void installed.resolveData(early);
            return installed;
          })();
        },
        grew: () => installed?.sendRows(false),
      });
    } catch (e) {
      post({ type: 'run-error', run, label, message: e instanceof Error ? e.message : String(e) });
      resumePrevious();
      return;
    }
    const begun = (await ((installing as Promise<TauBenchRun | null> | null) ?? Promise.resolve(null))) as TauBenchRun | null;
    if (r === null || !wanted()) return;
    if (r.kind !== 'tau-bench') {
      const h = OBJECT_HANDLES[r.kind](this, slot, run, r, source.kind === 'sample');
      this.install(h);
      await h.open(r.label, r.shared);
      return;
    }
    if (r.early && begun && this.slots[slot] === begun) {
      // Every episode is in: the last rows go out, and judging goes on to the end (then the data version and rule are settled).
      begun.sendRows(true);
      return;
    }
    label = r.label;
    await prefetched;
    await yieldToMessages();
    await hashReady;
    if (!wanted()) return;
    // A file judged while it was read that turned out damaged or of another domain is opened again from the start.
    const h = this.tauBenchRun(slot, run, source, r.session, label, r.shared, r.bytes ?? null);
    await h.resolveData(early);
  }

  /** A τ-bench run becomes the slot's: `run-opened` with the rows read so far (all of them unless the session is still reading). */
  private tauBenchRun(
    slot: RunSlot,
    run: number,
    source: RunSource,
    session: InspectSession,
    label: string,
    shared: OpenedRun['shared'],
    bytes: ByteStore | null,
  ): TauBenchRun {
    // The open run's local file is kept for a reload (a compared one is not), once its first verdict is out: IndexedDB
    // copies the file meanwhile, which would hold up the read of a kept DB.
    const h = new TauBenchRun(slot, run, session, source.kind === 'sample', bytes, { data: this.tauBench, persisted: this.persisted });
    if (source.kind === 'file' && slot === 'a') void h.firstVerdict.then(() => storeFile(source.file));
    this.install(h);
    h.announce(label, shared);
    return h;
  }
}
