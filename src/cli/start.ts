import { createHash } from 'node:crypto';
import { setHostSha256 } from '../core/contract';
import { isJudgeWorker } from './judge-pool';
import { isIndexWorker } from './library/pool';
import { main } from './main';

/** Runs the CLI on `process.argv`, or, in an index or judge worker thread, leaves the thread to answer its jobs. */
export async function start(): Promise<void> {
  // Node's sha256 (native, SHA extensions where the CPU has them) for every hash the core makes: the same hashes, ~6× the WASM one's speed.
  setHostSha256(() => createHash('sha256'));
  // An index worker (`tau-inspect index --jobs N`) or a judge worker (`evaluate --json --jobs N`) runs this same program and only answers its jobs.
  if (!isIndexWorker() && !isJudgeWorker()) process.exitCode = await main(process.argv.slice(2));
}
