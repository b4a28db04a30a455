/**
 * The CLI as `npm run build:cli` ships it (bin/tau-inspect.mjs runs that bundle when it exists), bundled once per
 * test run (test/support/run-once.ts): each CLI run in the specs starts plain node instead of compiling the
 * sources with tsx (about a second of CPU each). The sources through tsx, as `npm run cli` runs them, stay
 * covered by test/cli/cli.spec.ts's pipe test.
 */
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { runOnce } from './run-once';

const ROOT = resolve(import.meta.dirname, '../..');

/** The path of the bundled CLI (read-only, shared by every spec file of the run). */
export async function cliBundle(): Promise<string> {
  const dir = await runOnce('cli-bundle', async (out) => {
    await build({
      entryPoints: [join(ROOT, 'src/cli/tau-inspect.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: join(out, 'tau-inspect.mjs'),
      logLevel: 'warning',
    });
  });
  return join(dir, 'tau-inspect.mjs');
}

/** `evaluate --json`'s output (or any command's JSON lines): one parsed value per line. */
export const jsonLines = <T>(out: string): T[] =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);
