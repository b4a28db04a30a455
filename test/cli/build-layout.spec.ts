import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../vite.config';

const root = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: Record<string, string>; bin: Record<string, string> };
const inside = (dir: string, path: string): boolean => {
  const r = relative(dir, path);
  return r === '' || (!r.startsWith('..') && !r.startsWith('/'));
};

describe('npm run build and npm run build:cli do not erase each other', () => {
  const appDir = resolve(root, config.build?.outDir ?? 'dist');
  const cliFile = resolve(root, /--outfile=(\S+)/.exec(pkg.scripts['build:cli']!)![1]!);

  it('the app is built into dist/app, the CLI bundle into dist/cli', () => {
    expect(relative(root, appDir)).toBe('dist/app');
    expect(relative(root, dirname(cliFile))).toBe('dist/cli');
  });

  it('vite empties only its own folder, which does not hold the CLI bundle; the bundler empties nothing', () => {
    expect(inside(appDir, cliFile)).toBe(false);
    expect(pkg.scripts['build:cli']).not.toMatch(/rm |rimraf|--clean/);
  });

  it('the package bin looks for the bundle where build:cli writes it', () => {
    const bin = readFileSync(resolve(root, pkg.bin['tau-inspect']!), 'utf8');
    expect(bin).toContain(`'../${relative(root, cliFile)}'`);
  });
});
