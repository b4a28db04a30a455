import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { episodeFingerprint, mergeNotes, parseNotesExport, plainJson, type EpisodeNotes } from '../../../src/core/contract';
import { readResultsFile } from '../../../src/core/model/episode/results-file';
import { sanitizeLayout } from '../../../src/store/layout-slice';

const root = resolve(import.meta.dirname, '../../..');
const sample = readFileSync(join(root, 'sample-runs/runs/retail-sample.json'), 'utf8');

/** The sample's first episode with `extra` spliced, as text, into its task (so `__proto__` is an ordinary key of the file). */
function withTaskKey(extra: string): string {
  const episodes = JSON.parse(sample) as unknown[];
  const text = JSON.stringify([episodes[0]]);
  expect(text).toContain('"task":{');
  return text.replace('"task":{', `"task":{${extra},`);
}

describe('keys from a file stay data', () => {
  it('two episodes that differ only under __proto__ get different fingerprints', () => {
    const fps = ['{"__proto__": {"x": 1}}', '{"__proto__": {"x": 2}}', '{"__proto__": null}', '{}'].map((v) => {
      const [rec] = readResultsFile(withTaskKey(`"meta": ${v}`));
      return episodeFingerprint(rec!);
    });
    expect(new Set(fps).size).toBe(4);
    const top = ['"__proto__": 1', '"__proto__": 2', '"constructor": 2', '"toString": 2'].map((v) => episodeFingerprint(readResultsFile(withTaskKey(v))[0]!));
    expect(new Set(top).size).toBe(4);
  });

  it('plainJson keeps __proto__, constructor and toString as own keys', () => {
    const v = plainJson(
      new Map<string, never>([
        ['__proto__', 1 as never],
        ['constructor', 'c' as never],
      ]),
    ) as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(v, '__proto__')?.value).toBe(1);
    expect(v.toString).toBeUndefined();
  });

  it('notes: steps read or merged have no inherited keys', () => {
    const note = (steps: Record<string, string>): EpisodeNotes => ({
      fingerprint: 'b'.repeat(64),
      label: null,
      note: 'n',
      steps,
      file: null,
      index: 0,
      taskId: 0,
      updatedAt: '',
    });
    const parsed = parseNotesExport(JSON.stringify({ format: 'tau-inspect-notes', version: 1, episodes: [note({ '2': 'x' })] }));
    expect(parsed.ok).toBe(true);
    const steps = parsed.ok ? parsed.value.episodes[0]!.steps : {};
    expect('constructor' in steps).toBe(false);
    const merged = mergeNotes([note({ '1': 'a' })], [note({ '2': 'b' })]);
    expect('toString' in merged.write[0]!.steps).toBe(false);
    expect(merged.write[0]!.steps).toEqual({ '1': 'a', '2': 'b' });
  });

  it('a stored layout with __proto__, toString or constructor keys adds none of them', () => {
    const out = sanitizeLayout(JSON.parse('{"__proto__": true, "toString": true, "constructor": true, "hasOwnProperty": true}'));
    expect(Object.keys(out)).toEqual([]);
    expect(Object.getPrototypeOf(out) === null || Object.getPrototypeOf(out) === Object.prototype).toBe(true);
    expect((out as Record<string, unknown>).toString).not.toBe(true);
  });

  it('lint refuses `o[key] = …` on an object literal in src (local/no-computed-key-on-plain-object)', async () => {
    const eslint = new ESLint({ cwd: root });
    const code = [
      'export function f(m: Map<string, number>): Record<string, number> {',
      '  const o: Record<string, number> = {};',
      '  for (const [k, v] of m) o[k] = v;',
      '  const p = Object.create(null) as Record<string, number>;',
      '  for (const [k, v] of m) p[k] = v;',
      '  return { ...o, ...p };',
      '}',
      '',
    ].join('\n');
    const [result] = await eslint.lintText(code, { filePath: join(root, 'src/core/view/lint-probe.ts') });
    const hits = result!.messages.filter((m) => m.ruleId === 'local/no-computed-key-on-plain-object');
    expect(hits.map((m) => m.line)).toEqual([3]);
  });
});
