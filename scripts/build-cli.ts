/**
 * `npm run build:cli -- ` builds the CLI as it ships: `--outfile=dist/cli/tau-inspect.mjs`, the small entry module
 * (src/cli/code-cache/entry.ts), and beside it `tau-inspect.body.cjs`, the whole CLI (src/cli/code-cache/body.ts) as
 * one CommonJS script, which the entry compiles with V8's code cache. test/support/cli-bundle.ts builds the same.
 */
import { resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');

/** Builds the entry at `outfile` (ending in `.mjs`) and its body beside it. */
export async function buildCli(outfile: string): Promise<void> {
  const common = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning' } as const;
  await build({ ...common, entryPoints: [resolve(ROOT, 'src/cli/code-cache/entry.ts')], format: 'esm', outfile });
  await build({
    ...common,
    entryPoints: [resolve(ROOT, 'src/cli/code-cache/body.ts')],
    format: 'cjs',
    outfile: outfile.replace(/\.mjs$/, '.body.cjs'),
    // The loader's wrapper gives these (loader.ts); `import.meta.resolve` is used only from the sources (tsx).
    define: { 'import.meta.url': '__tauInspectUrl', 'import.meta.resolve': 'undefined' },
  });
}

if (import.meta.filename === process.argv[1]) {
  const out = process.argv.find((a) => a.startsWith('--outfile='))?.slice('--outfile='.length);
  if (!out?.endsWith('.mjs')) throw new Error('usage: tsx scripts/build-cli.ts --outfile=dist/cli/tau-inspect.mjs');
  await buildCli(resolve(out));
}
