/**
 * The built CLI's entry (`dist/cli/tau-inspect.mjs`, scripts/build-cli.ts): a small module that compiles the bundle's
 * body (`tau-inspect.body.cjs` beside it) with V8's code cache, so a process skips most of compiling 1.2 MB of
 * JavaScript (Node 20 has no `module.enableCompileCache`). The cache lives in the folder of τ²'s DB cache
 * (tau2/db-cache.ts), one file per body (by its content), Node version and V8 flags: `cli-code-<key>.v8`, holding
 * `HEADER <sha256 of the body> <sha256 of the data> <data's length>\n` + V8's data. A process that finds none, or one
 * that is damaged, made for another body or rejected by V8, compiles the body as usual (silently: the output is the
 * same) and, once its command is done, writes the code V8 compiled meanwhile — to a temporary file renamed over the
 * cache file, so processes filling it at once never see a part of another's. `--no-cache` (or
 * `TAU_INSPECT_NO_CACHE=1`) neither reads nor writes it. Worker threads (index, judge pools) start this module too and
 * read the cache, never write it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { isMainThread } from 'node:worker_threads';
import { cacheDisabled, cacheFolder, prune } from '../tau2/db-cache';
import { v8FlagsFor } from './tiering';

const HEADER = 'tau-inspect code cache 1';

/**
 * The V8 flags the main thread set (`v8FlagsFor`), handed to worker threads through their copy of the environment: V8's
 * flags are the process's, and a worker's code cache is keyed by them too.
 */
const FLAGS_ENV = 'TAU_INSPECT_V8_FLAGS';

/** The V8 flags of this thread's process: chosen and set on the main thread, read in a worker. */
function v8Flags(): readonly string[] {
  if (!isMainThread) return (process.env[FLAGS_ENV] ?? '').split(' ').filter((f) => f !== '');
  const flags = v8FlagsFor(process.argv.slice(2));
  if (flags.length > 0) {
    setFlagsFromString(flags.join(' '));
    process.env[FLAGS_ENV] = flags.join(' ');
  } else delete process.env[FLAGS_ENV];
  return flags;
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** The cache's data for `bodyHash` if `bytes` is a whole, undamaged cache file made for it, else null. */
export function cachedCode(bytes: Buffer | null, bodyHash: string): Buffer | null {
  if (bytes === null) return null;
  const nl = bytes.indexOf(10);
  const m = nl < 0 ? null : /^(.*) ([0-9a-f]{64}) ([0-9a-f]{64}) (\d+)$/.exec(bytes.subarray(0, nl).toString('utf8'));
  const data = bytes.subarray(nl + 1);
  if (m === null || m[1] !== HEADER || m[2] !== bodyHash || Number(m[4]) !== data.length || sha256(data) !== m[3]) return null;
  return data;
}

/** A cache file's bytes: the header, then V8's data. */
export const cacheFileBytes = (bodyHash: string, data: Buffer): Buffer =>
  Buffer.concat([Buffer.from(`${HEADER} ${bodyHash} ${sha256(data)} ${data.length}\n`, 'utf8'), data]);

/** `--no-cache` among the arguments (before a `--`), as the CLI's parser reads it. */
const noCacheArg = (argv: readonly string[]): boolean => {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--no-cache');
};

/** Compiles and runs the body beside the loader at `loaderUrl`; resolves when its command is done (and its code kept). */
export async function runBody(loaderUrl: string): Promise<void> {
  const bodyPath = fileURLToPath(loaderUrl).replace(/\.mjs$/, '.body.cjs');
  const source = readFileSync(bodyPath, 'utf8');
  const bodyHash = sha256(source);
  const useCache = !cacheDisabled() && !noCacheArg(process.argv.slice(2));
  // A short τ² run goes without TurboFan, index with a tighter heap (tiering.ts); V8's code cache depends on its flags, so they are in the key.
  const flags = v8Flags();
  const folder = cacheFolder();
  const key = sha256(`${HEADER}\n${bodyHash}\n${process.version} ${process.arch} ${process.versions.v8}\n${[...process.execArgv, ...flags].join(' ')}`);
  const path = join(folder, `cli-code-${key.slice(0, 32)}.v8`);
  let bytes: Buffer | null = null;
  if (useCache) {
    try {
      bytes = readFileSync(path);
    } catch {
      bytes = null;
    }
  }
  const cachedData = cachedCode(bytes, bodyHash) ?? undefined;
  // Node's CommonJS wrapper, plus the loader's URL (the body's `import.meta.url`: worker threads start the loader), the
  // body's path and sha256 (program-file.ts: the DB cache's program hash, not read and hashed again) and the loader's
  // `import()` (dynamic-import.ts).
  const wrapped = `(function (exports, require, module, __filename, __dirname, __tauInspectUrl, __tauInspectBody, __tauInspectImport, __tauInspectBodyHash) {${source}\n})`;
  const script = new Script(wrapped, {
    filename: bodyPath,
    ...(cachedData ? { cachedData } : {}),
  });
  const accepted = cachedData !== undefined && !script.cachedDataRejected;
  const module = { exports: {} as { started?: Promise<void> } };
  const body = script.runInThisContext() as (...args: unknown[]) => void;
  const importModule = (specifier: string): Promise<unknown> => import(specifier);
  body.call(module.exports, module.exports, createRequire(bodyPath), module, bodyPath, dirname(bodyPath), loaderUrl, bodyPath, importModule, bodyHash);
  await module.exports.started;
  if (!useCache || accepted || !isMainThread) return;
  // The code compiled by now (the functions this command ran, not only the top level) for the next process.
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(tmp, cacheFileBytes(bodyHash, script.createCachedData()));
    renameSync(tmp, path);
    await prune(folder);
  } catch {
    // Not kept (a read-only or full disk, a cache folder that is a file): the next process compiles as this one did.
    try {
      rmSync(tmp, { force: true });
    } catch {
      /* there was no temporary file to remove (its folder could not be made) */
    }
  }
}
