/**
 * The CLI as `npm run build:cli` ships it (bin/tau-inspect.mjs runs that bundle when it exists), bundled once per
 * test run (test/support/run-once.ts): each CLI run in the specs starts plain node instead of compiling the
 * sources with tsx (about a second of CPU each). The sources through tsx, as `npm run cli` runs them, stay
 * covered by test/cli/cli.spec.ts's pipe test.
 */
import { join } from 'node:path';
import { buildCli } from '../../scripts/build-cli';
import { runOnce } from './run-once';

/** The path of the bundled CLI's entry (read-only, shared by every spec file of the run), its body beside it as build:cli makes them. */
export async function cliBundle(): Promise<string> {
  const dir = await runOnce('cli-bundle', (out) => buildCli(join(out, 'tau-inspect.mjs')));
  return join(dir, 'tau-inspect.mjs');
}

/** `evaluate --json`'s output (or any command's JSON lines): one parsed value per line. */
export const jsonLines = <T>(out: string): T[] =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);
