/**
 * Where a command writes its output file (`report -o`). An output never clobbers what the command
 * reads: a path that is one of its inputs (the same real path, or the same file by device and inode —
 * a hard link, a symlink) is refused before anything is read, and so is a `.json` or `.toml` (τ² telecom's
 * DBs) file inside a folder it reads (a τ² run folder, a local data folder). A regular file is written through a temporary file
 * in its own folder and renamed over the target at the end, so a failure leaves the old file as it
 * was and no half output. `-` is standard output; a device or a pipe named by path (`/dev/stdout`)
 * is written as it is. A reader that goes away (`| head`) ends the program quietly with status 0,
 * as `evaluate` does.
 */
import { closeSync, fchmodSync, lstatSync, openSync, readlinkSync, realpathSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { basename, dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { UsageError } from './usage';

/** An input of the command: a file it reads, or a folder it reads files from. */
export interface OutputInput {
  readonly path: string;
  /** What the path is to the command, for the message: "the results file", "the notes file", … */
  readonly role: string;
}

const statOrNull = (path: string): Stats | null => {
  try {
    return statSync(path);
  } catch {
    return null;
  }
};

const lstatOrNull = (path: string): Stats | null => {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
};

const realOrNull = (path: string): string | null => {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
};

/**
 * The real path the output would have: its folder's real path and its name (the output may not exist yet).
 * A symlink whose target does not exist yet is followed (as the shell's `>` follows it): the file is made where it points, the link kept.
 */
function realTarget(output: string, links = 0): string {
  const real = realOrNull(output);
  if (real !== null) return real;
  if (links < 40 && lstatOrNull(output)?.isSymbolicLink()) return realTarget(resolve(dirname(resolve(output)), readlinkSync(output)), links + 1);
  return join(realOrNull(dirname(resolve(output))) ?? dirname(resolve(output)), basename(output));
}

const inside = (dir: string, path: string): boolean => {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

/**
 * Throws a UsageError when writing `output` could destroy one of `inputs`, or cannot be written where it is named
 * (a folder, a name ending in /, a missing folder unless `makesFolders`). `-` (standard output) is always fine.
 */
export function checkOutput(output: string, inputs: readonly OutputInput[], makesFolders = false): void {
  if (output === '-') return;
  if (output === '') throw new UsageError('-o needs a file name (or - for standard output)');
  const out = statOrNull(output);
  if (out?.isDirectory()) throw new UsageError(`cannot write ${output}: it is a folder`);
  // A name ending in / names a folder: never a file made under the folder's name.
  if (/\/$/.test(output)) throw new UsageError(`cannot write ${output}: it names a folder; give a file name`);
  const folder = dirname(resolve(output));
  const parent = statOrNull(folder);
  // Said before anything is read, of the folder the user named (not of the temporary file beside the output).
  if (!makesFolders && out === null && parent === null && lstatOrNull(output) === null)
    throw new UsageError(`cannot write ${output}: the folder ${dirname(output)} does not exist`);
  if (parent !== null && !parent.isDirectory()) throw new UsageError(`cannot write ${output}: ${dirname(output)} is not a folder`);
  const target = realTarget(output);
  for (const input of inputs) {
    if (/^https?:\/\//.test(input.path)) continue;
    const st = statOrNull(input.path);
    const real = realOrNull(input.path);
    if (st === null || real === null) continue;
    const same = real === target || (out !== null && out.dev === st.dev && out.ino === st.ino);
    if (same) throw new UsageError(`refusing to write ${output}: it is ${input.role} (${input.path}); choose another output file`);
    // The files a folder's readers take: results and data (.json), and τ² telecom's DBs (.toml).
    const kind = /\.(json|toml)$/i.exec(target);
    if (st.isDirectory() && inside(real, target) && kind !== null)
      throw new UsageError(
        `refusing to write ${output}: it is a ${kind[0].toLowerCase()} file inside ${input.role} (${input.path}), which is read; choose another output file`,
      );
  }
}

/**
 * Throws a UsageError when two outputs of one command are the same file (`index -o runs.parquet --errors runs.parquet`):
 * the second written would replace the first. Compared as `checkOutput` compares an output with an input, and also
 * when neither exists yet (the same real target).
 */
export function checkDistinctOutputs(a: OutputInput, b: OutputInput): void {
  if (a.path === '-' || b.path === '-') return;
  const sa = statOrNull(a.path);
  const sb = statOrNull(b.path);
  if (realTarget(a.path) === realTarget(b.path) || (sa !== null && sb !== null && sa.dev === sb.dev && sa.ino === sb.ino))
    throw new UsageError(`refusing to write ${b.path} as ${b.role}: it is also ${a.role} (${a.path}); choose another file`);
}

const isPipeGone = (e: unknown): boolean => (e as NodeJS.ErrnoException | null)?.code === 'EPIPE';

/** Writes every part to standard output, waiting when the reader is slower; a closed pipe ends the program quietly (the pipe guard). */
async function toStdout(parts: Iterable<string>): Promise<number> {
  let bytes = 0;
  for (const part of parts) {
    bytes += Buffer.byteLength(part, 'utf8');
    if (!process.stdout.write(part)) await once(process.stdout, 'drain');
  }
  return bytes;
}

function writeAll(fd: number, parts: Iterable<string>, output: string): number {
  let bytes = 0;
  for (const part of parts) {
    const chunk = Buffer.from(part, 'utf8');
    try {
      for (let at = 0; at < chunk.length;) at += writeSync(fd, chunk, at);
    } catch (e) {
      if (isPipeGone(e)) process.exit(0);
      throw new UsageError(`cannot write ${output}: ${(e as Error).message}`);
    }
    bytes += chunk.length;
  }
  return bytes;
}

/**
 * Writes the parts as they are made (a 5,000-episode report, ~100 MB, is never held whole) and
 * returns the bytes written. Call `checkOutput` first, before reading any input.
 */
export async function writeOutput(output: string, parts: Iterable<string>): Promise<number> {
  if (output === '-') return toStdout(parts);
  const existing = statOrNull(output);
  if (existing !== null && !existing.isFile()) {
    // A device, a FIFO, /dev/stdout: written as it is (no file to rename over).
    let fd: number;
    try {
      fd = openSync(output, 'w');
    } catch (e) {
      throw new UsageError(`cannot write ${output}: ${(e as Error).message}`);
    }
    try {
      return writeAll(fd, parts, output);
    } finally {
      closeSync(fd);
    }
  }
  const target = realTarget(output);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number;
  try {
    fd = openSync(temp, 'wx', 0o666);
  } catch (e) {
    throw new UsageError(`cannot write ${output}: ${(e as Error).message}`);
  }
  let done = false;
  try {
    if (existing !== null) fchmodSync(fd, existing.mode & 0o7777);
    const bytes = writeAll(fd, parts, output);
    closeSync(fd);
    fd = -1;
    try {
      renameSync(temp, target);
    } catch (e) {
      throw new UsageError(`cannot write ${output}: ${(e as Error).message}`);
    }
    done = true;
    return bytes;
  } finally {
    if (fd !== -1) closeSync(fd);
    if (!done) {
      try {
        unlinkSync(temp);
      } catch {
        // already gone
      }
    }
  }
}

/** A write to standard output gathers lines up to this many UTF-16 units (about a pipe's 64 KB). */
const GATHER_UNITS = 1 << 16;

/**
 * Lines for standard output, gathered into writes of about 64 KB: a write per line to a pipe is a system call and a
 * wake-up of the reader each (the 98 MB file's 5,000 lines: ~0.3 s more through a pipe than to a file). What is
 * gathered goes out when it reaches that size, at the next turn of the event loop (so a line waits at most for the
 * judging of the piece of the file it came with), and at `flush`.
 */
export function gatheredLines(write: (text: string) => unknown = (t) => process.stdout.write(t)): {
  readonly line: (text: string) => void;
  readonly flush: () => void;
} {
  let parts: string[] = [];
  let units = 0;
  let due = false;
  const flush = (): void => {
    due = false;
    if (parts.length === 0) return;
    const text = parts.join('');
    parts = [];
    units = 0;
    write(text);
  };
  return {
    line(text) {
      parts.push(text, '\n');
      units += text.length + 1;
      if (units >= GATHER_UNITS) flush();
      else if (!due) {
        due = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
