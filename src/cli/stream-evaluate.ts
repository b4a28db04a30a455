import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { inertJson, InspectSession, prepareSha256, readTau2Text, ResultsFileError, type FileOptions, type RewardRule, type Tau2Run } from '../core/contract';
import { JudgePool, type JudgedBatch } from './judge-pool';
import { KEPT_EVALUATIONS, chooseDataFrom } from './open-session';
import { UsageError } from './usage';

/** Bytes read at a time (each piece is parsed, and its episodes judged, before the next is read). */
const PIECE_BYTES = 1 << 20;

/** Episodes handed to a judge worker at a time, and batches waiting per judging thread before reading waits (memory stays bounded). */
const BATCH = 16;
const BATCHES_PER_WORKER = 4;
/**
 * Batches kept out at each worker (topped up as it answers). The thread that reads the file judges too: while it
 * would wait, it judges the oldest batch no worker has, so it takes more while the workers build their DB and
 * reference replays, and fewer while it reads.
 */
const OUT_PER_WORKER = 3;
/** Batches this thread judges ahead of their turn at most: their evaluations are kept until then (`KEPT_EVALUATIONS`, 64). */
const HERE_AHEAD = 3;

/** Evaluations kept when one thread judges (lines waiting for the whole file are made again from the episode if let go). */
const KEPT_EVALUATIONS_ONE_THREAD = 8;

/** Files from this size (or of a size not known: a pipe) are judged by worker threads when `jobs` > 1. */
export const POOL_MIN_BYTES = 2 << 20;

/**
 * The same when `--jobs` is not given: each judge worker builds its own DB, base hashes and reference replays, and
 * the file's episodes are parsed on both sides (~1.6 s of CPU more for the pool, whatever the file's size), so a
 * smaller file is judged sooner on this thread alone (gpt-4o-airline, 4 MB: 1.3 s CPU and wall against 2.2–2.6 s
 * of CPU and no less wall with 2 workers; on a busy machine several times the wall).
 */
export const DEFAULT_POOL_MIN_BYTES = 16 << 20;

/**
 * Threads judging a big file when `--jobs` is not given, on a machine with `cores` cores: one fewer than the cores, so
 * none on 2. V8's own threads (the garbage collector's marking and scavenging, the optimizing compiler) keep about one
 * core busy beside the thread that reads and judges: the 98 MB file on one thread takes ~3.3 s of that thread's CPU
 * and ~1.8 s on V8's threads, so 2 cores are both busy already. A worker there adds its start-up, its own compiling
 * and garbage collection and a second parse of its episodes (~1.7 s of CPU more in all) for work the other core
 * has no room for: it ended 0.2–0.4 s later than one thread.
 */
export const defaultJudgingThreads = (cores: number): number => Math.max(1, cores - 1);

/** A batch of episodes out to be judged, in file order (one with no answer is judged on this thread when its turn comes). */
interface Batch {
  readonly session: InspectSession;
  readonly indices: readonly number[];
  readonly revised: readonly boolean[];
}

/** One episode's line and whether it may still change before the data version is settled (`reportOf`'s `provisional`). */
interface Judged {
  readonly index: number;
  readonly line: string;
  readonly provisional: boolean;
}

const lineHere = (s: InspectSession, index: number, revised: boolean): Judged => {
  const { report, provisional } = s.reportOf(index);
  return { index, line: inertJson(revised ? { ...report, revised: true } : report), provisional };
};

/**
 * Episodes judged by a `JudgePool` and this thread (or this thread alone, without one), handed to `take` in file
 * order as soon as the oldest batch out is back: `send` puts episodes out in batches of `BATCH` episodes next to
 * each other in the file; the workers are kept `OUT_PER_WORKER` batches each (their bytes copied out), topped up
 * as they answer; `drain` waits until at most `keep` batches are out, and while it waits this thread judges the
 * oldest batch no worker has (its evaluations made now, its lines in its turn), so neither side waits for the other.
 */
class InOrder {
  private readonly queue: Entry[] = [];
  private wake: (() => void) | null = null;
  private failure: { readonly error: unknown } | null = null;

  constructor(
    private readonly pool: JudgePool | null,
    private readonly bytes: () => Uint8Array,
    private readonly take: (j: Judged) => void,
  ) {}

  /** Episodes [from, to) of `s`, judged under `rule` (a line marked `"revised": true` where `revisedOf(index)`). */
  send(s: InspectSession, from: number, to: number, rule: RewardRule, revisedOf: (index: number) => boolean): void {
    for (let i = from; i < to; i += BATCH) {
      const indices = Array.from({ length: Math.min(BATCH, to - i) }, (_, k) => i + k);
      const entry: Entry = { batch: { session: s, indices, revised: indices.map(revisedOf) }, rule, out: false, answer: undefined };
      // Without workers each batch is judged here in its turn.
      if (!this.pool) entry.answer = null;
      this.queue.push(entry);
    }
    this.topUp();
    this.pump();
  }

  /** Hands the oldest batches nobody has to the workers while they have fewer than `OUT_PER_WORKER` each. */
  private topUp(): void {
    const pool = this.pool;
    if (!pool) return;
    for (const entry of this.queue) {
      if (pool.out >= pool.size * OUT_PER_WORKER) return;
      if (entry.out || entry.answer !== undefined) continue;
      const { session: s, indices, revised } = entry.batch;
      const ranges = indices.map((k) => s.episodeRange(k));
      if (ranges.some((r) => r === null)) {
        entry.answer = null;
        continue;
      }
      const start = ranges[0]![0];
      const spans = ranges.flatMap((r) => [r![0] - start, r![1] - start]);
      entry.out = true;
      void pool.judge(indices, this.bytes().slice(start, ranges.at(-1)![1]), spans, entry.rule, revised).then((a) => {
        entry.answer = a;
        this.topUp();
        this.pump();
      });
    }
  }

  /** Hands on every batch at the head of the queue that is back (or judged here). */
  private pump(): void {
    try {
      while (this.failure === null && this.queue.length > 0 && this.queue[0]!.answer !== undefined) {
        const { batch, answer } = this.queue.shift()!;
        this.hand(batch, answer!);
      }
    } catch (error) {
      this.failure = { error };
    }
    this.wake?.();
  }

  private hand(b: Batch, a: JudgedBatch | null): void {
    const final = a !== null && b.session.detection().dataFinal;
    b.indices.forEach((index, k) => {
      // A line the file's other episodes add a finding to is made here, by the session.
      if (a === null || b.session.fileFindings(index).length > 0) return this.take(lineHere(b.session, index, b.revised[k]!));
      b.session.adoptVerdicts(index, a.verdicts[k]!);
      this.take({ index, line: a.lines[k]!, provisional: a.misfits[k]! && !final });
    });
  }

  async drain(keep: number): Promise<void> {
    while (this.failure === null && this.queue.length > keep) {
      // No more judged ahead here than the session keeps evaluations of (their lines are made in their turn).
      const ahead = this.queue.filter((e) => !e.out && e.answer === null).length;
      const mine = this.pool && ahead < HERE_AHEAD ? this.queue.find((e) => !e.out && e.answer === undefined) : undefined;
      if (mine) {
        // Judged now (the session keeps the evaluations; the lines are made in the batch's turn, as without workers),
        // then the workers' answers are let in before the next.
        mine.answer = null;
        try {
          for (const index of mine.batch.indices) mine.batch.session.evaluation(index);
        } catch (error) {
          this.failure = { error };
          break;
        }
        this.pump();
        await new Promise<void>((ok) => setImmediate(ok));
        continue;
      }
      await new Promise<void>((ok) => (this.wake = ok));
    }
    this.wake = null;
    if (this.failure) throw this.failure.error;
  }
}

/** A batch in the queue: `out` once sent to the workers; `answer` theirs, null to be judged here, undefined while nobody has judged it. */
interface Entry {
  readonly batch: Batch;
  readonly rule: RewardRule;
  out: boolean;
  answer: JudgedBatch | null | undefined;
}

/** A file's bytes as they arrive, kept whole (episodes are read again from them by byte range). */
class GrowingBytes {
  private buf: Uint8Array;
  length = 0;
  /** `expected`: the file's size when it is known (a regular file), so the bytes are never copied to grow. */
  constructor(expected: number) {
    this.buf = new Uint8Array(Math.max(expected, PIECE_BYTES));
  }
  append(chunk: Uint8Array): void {
    if (this.length + chunk.length > this.buf.length) {
      const more = new Uint8Array(Math.max(this.buf.length * 2, this.length + chunk.length));
      more.set(this.buf.subarray(0, this.length));
      this.buf = more;
    }
    this.buf.set(chunk, this.length);
    this.length += chunk.length;
  }
  get bytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

/** The first byte after a UTF-8 BOM and whitespace: `{` for a τ² results object, null while there is none yet. */
function opening(b: Uint8Array): number | null {
  let i = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09)) i++;
  return i < b.length ? b[i]! : null;
}

export type Streamed =
  { readonly kind: 'tau-bench'; readonly session: InspectSession; readonly revised: number } | { readonly kind: 'tau2'; readonly run: Tau2Run };

/**
 * `evaluate --json` on a file read as it arrives (a pipe, a FIFO, a file still being written): each
 * episode's JSON line goes to `print` as soon as it is judged, while the rest is read, in file order.
 * Lines are final except where the whole file may still change them, which is said:
 * - from the first episode whose recorded gt_data_hash the provisional data version does not reproduce
 *   (it may be named in the minority once every recorded hash is weighed: a finding) on, lines wait
 *   until the whole file is read, so the order stays the file's;
 * - when the whole file overturns the data version, or settles another rule, or turns out damaged or of
 *   another domain (then it is read the careful way), every episode is judged again and printed again
 *   with `"revised": true`: that line replaces the one printed before for the same index.
 * The final lines are those `session.evaluateAll` gives. A τ² results object is handed back, read whole.
 */
export async function streamEvaluate(
  file: string,
  data: string,
  options: FileOptions,
  print: (line: string) => void,
  jobs = 1,
  poolMinBytes = POOL_MIN_BYTES,
): Promise<Streamed> {
  await prepareSha256();
  const size = await stat(file).then(
    (st) => (st.isFile() ? st.size : 0),
    () => 0,
  );
  const got = new GrowingBytes(size);
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  // Judged on this thread alone, each line is made as its episode is judged: a few evaluations kept, not the pool's
  // judged-ahead batches (98 MB file: peak RSS ~536 → ~507 MB with the reparser's change; the time did not move).
  const pooled = jobs > 1 && (size === 0 || size >= poolMinBytes);
  const memory = { keptEvaluations: pooled ? KEPT_EVALUATIONS : KEPT_EVALUATIONS_ONE_THREAD };
  const reader = InspectSession.reader((start, end) => decoder.decode(got.bytes.subarray(start, end)), options, undefined, memory);
  let tau2: boolean | null = null;
  let plain = true;
  let early: InspectSession | null = null;
  let dataReady = false;
  let next = 0;
  /** Lines waiting for the whole file, in order: the text when it is final already, null when it is made again at the end. */
  const waiting: { readonly index: number; readonly text: string | null }[] = [];
  const printed = new Set<number>();
  let revisions = 0;
  const out = (index: number, text: string, revised: boolean): void => {
    print(text);
    printed.add(index);
    if (revised) revisions++;
  };
  const lineOf = (s: InspectSession, index: number, revised: boolean): string => lineHere(s, index, revised).line;
  /** A line judged while the file is read: printed, or held in order behind one that waits for the whole file. */
  const take = (j: Judged): void => {
    if (j.provisional) waiting.push({ index: j.index, text: null });
    else if (waiting.length > 0) waiting.push({ index: j.index, text: j.line });
    else out(j.index, j.line, false);
  };
  // Assigned in judgeStreamed (a cast, so the finally below does not read it as always null).
  let pool = null as JudgePool | null;
  let lines = new InOrder(null, () => got.bytes, take);
  try {
    return await judgeStreamed();
  } finally {
    await pool?.close();
  }

  async function judgeStreamed(): Promise<Streamed> {
    try {
      for await (const chunk of createReadStream(file, { highWaterMark: PIECE_BYTES }) as AsyncIterable<Uint8Array>) {
        const from = got.length;
        got.append(chunk);
        if (tau2 === null) {
          // What the file is shows at its first byte that is not whitespace.
          const first = opening(got.bytes);
          if (first === null) continue;
          tau2 = first === 0x7b;
          if (!tau2) plain = reader.push(got.bytes);
          // The reader keeps pieces of an episode not yet complete: views of the bytes kept anyway, not the chunks read.
        } else if (!tau2 && plain) plain = reader.push(got.bytes.subarray(from));
        if (tau2 || !plain) continue;
        early ??= reader.early();
        if (!early) continue;
        if (!dataReady) {
          await chooseDataFrom(early, data);
          dataReady = true;
          if (pooled) {
            // This thread is one of the `jobs` judging: each worker builds its own DB and reference replays, and
            // parses its episodes again, where this one has them parsed already.
            pool = new JudgePool(jobs - 1);
            pool.useData(early);
            lines = new InOrder(pool, () => got.bytes, take);
          }
        }
        lines.send(early, next, early.records.length, early.detection().rule, () => false);
        next = early.records.length;
        // Reading waits while enough batches are out (one thread: each episode is judged before the next piece is read).
        await lines.drain(pool ? jobs * BATCHES_PER_WORKER : 0);
      }
    } catch (e) {
      if (e instanceof UsageError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== undefined) throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
      throw e;
    }
    await lines.drain(0);
    const bytes = got.bytes;
    // An object: a τ² results file, else (a single episode) the τ-bench reader's whole-text way.
    const run = tau2 ? readTau2Text(new TextDecoder('utf-8').decode(bytes)) : null;
    if (run) return { kind: 'tau2', run };
    let session: InspectSession | null = plain && tau2 === false ? reader.session() : null;
    try {
      session ??= InspectSession.fromWholeText(bytes, options, undefined, memory);
    } catch (e) {
      if (e instanceof ResultsFileError) throw new ResultsFileError(`${file}: ${e.message}`);
      throw e;
    }
    if (session !== early || !dataReady) await chooseDataFrom(session, data);
    // Every recorded hash weighed; judged again from the start when that moved the data version (or the session is new).
    const redo = session.settleData() || session !== early;
    if (!redo) for (const w of waiting) out(w.index, w.text ?? lineOf(session, w.index, false), false);
    // The workers judge only the session whose bytes they were sent episodes of (on its data, again when it moved).
    const rest = new InOrder(
      session === early ? pool : null,
      () => got.bytes,
      (j) => out(j.index, j.line, printed.has(j.index)),
    );
    if (redo && session === early) pool?.useData(session);
    rest.send(session, redo ? 0 : next, session.records.length, session.detection().rule, (i) => printed.has(i));
    await rest.drain(0);
    // The rule settled from every episode's recorded reward: a change makes every line again.
    if (session.finish()) {
      rest.send(session, 0, session.records.length, session.detection().rule, () => true);
      await rest.drain(0);
    }
    return { kind: 'tau-bench', session, revised: revisions };
  }
}
