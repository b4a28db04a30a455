import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { inertJson, InspectSession, prepareSha256, readTau2Text, ResultsFileError, type FileOptions, type Tau2Run } from '../core/contract';
import { KEPT_EVALUATIONS, chooseDataFrom } from './open-session';
import { UsageError } from './usage';

/** Bytes read at a time (each piece is parsed, and its episodes judged, before the next is read). */
const PIECE_BYTES = 1 << 20;

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
export async function streamEvaluate(file: string, data: string, options: FileOptions, print: (line: string) => void): Promise<Streamed> {
  await prepareSha256();
  const size = await stat(file).then(
    (st) => (st.isFile() ? st.size : 0),
    () => 0,
  );
  const got = new GrowingBytes(size);
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const memory = { keptEvaluations: KEPT_EVALUATIONS };
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
  const lineOf = (s: InspectSession, index: number, revised: boolean): string => {
    const { report } = s.reportOf(index);
    return inertJson(revised ? { ...report, revised: true } : report);
  };
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
      }
      for (; next < early.records.length; next++) {
        const { report, provisional } = early.reportOf(next);
        if (provisional) waiting.push({ index: next, text: null });
        else if (waiting.length > 0) waiting.push({ index: next, text: inertJson(report) });
        else out(next, inertJson(report), false);
      }
    }
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== undefined) throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
    throw e;
  }
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
  for (let i = redo ? 0 : next; i < session.records.length; i++) out(i, lineOf(session, i, printed.has(i)), printed.has(i));
  // The rule settled from every episode's recorded reward: a change makes every line again.
  if (session.finish()) for (let i = 0; i < session.records.length; i++) out(i, lineOf(session, i, true), true);
  return { kind: 'tau-bench', session, revised: revisions };
}
