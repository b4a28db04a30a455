import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { episodeFingerprint, exportNotes, mergeNotes, parseNotesExport, plainJson, type EpisodeNotes } from '../../../src/core/contract';
import { readResultsFile } from '../../../src/core/model/episode/results-file';
import { prepareSha256 } from '../../../src/core/py/sha256';

const root = resolve(import.meta.dirname, '../../..');
const sampleText = readFileSync(join(root, 'sample-runs/runs/retail-sample.json'), 'utf8');

const fp = (c: string): string => c.repeat(64);
const note = (over: Partial<EpisodeNotes> = {}): EpisodeNotes => ({
  fingerprint: fp('a'),
  label: null,
  note: '',
  steps: {},
  file: 'run.json',
  index: 0,
  taskId: 3,
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('episode fingerprint', () => {
  it('is the same for a re-formatted copy of the file and differs between episodes', async () => {
    await prepareSha256();
    const a = readResultsFile(sampleText);
    const reformatted = JSON.stringify(JSON.parse(sampleText) as unknown, null, 4);
    const b = readResultsFile(reformatted);
    expect(a.map(episodeFingerprint)).toEqual(b.map(episodeFingerprint));
    expect(new Set(a.map(episodeFingerprint)).size).toBe(new Set(a.map((r) => JSON.stringify(JSON.parse(sampleText)[r.index].traj))).size);
    for (const f of a.map(episodeFingerprint)) expect(f).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignores the reward, the trial and key order, but not the dialogue', async () => {
    await prepareSha256();
    const ep = {
      task_id: 1,
      reward: 1.0,
      trial: 0,
      info: { task: { user_id: 'u', actions: [], instruction: 'i', outputs: [] } },
      traj: [{ role: 'user', content: 'hi' }],
    };
    const one = readResultsFile(JSON.stringify([ep]))[0]!;
    const other = readResultsFile(
      JSON.stringify([{ traj: ep.traj, trial: 3, reward: 0.0, task_id: 1, info: { task: { outputs: [], instruction: 'i', actions: [], user_id: 'u' } } }]),
    )[0]!;
    const changed = readResultsFile(JSON.stringify([{ ...ep, traj: [{ role: 'user', content: 'hi!' }] }]))[0]!;
    expect(episodeFingerprint(one)).toBe(episodeFingerprint(other));
    expect(episodeFingerprint(one)).not.toBe(episodeFingerprint(changed));
  });

  it('turns Python values into plain JSON as documented', () => {
    expect(
      plainJson(
        new Map<string, never>([
          ['a', 12n as never],
          ['b', 1000 as never],
          ['c', (2n ** 64n) as never],
          ['d', NaN as never],
        ]),
      ),
    ).toEqual({ a: 12, b: 1000, c: '18446744073709551616', d: 'NaN' });
  });
});

describe('notes export and import', () => {
  it('round-trips an export', () => {
    const ns = [note({ label: 'agent error', note: 'wrong flight', steps: { '2': 'here' } }), note({ fingerprint: fp('b'), index: 1, note: '<b>x</b>' })];
    const parsed = parseNotesExport(exportNotes('run.json', ns));
    expect(parsed.ok && parsed.value.episodes).toEqual(ns);
  });

  it('reads an export saved with a UTF-8 byte-order mark, as the app\'s File.text() does (red team: the CLI said "not JSON")', () => {
    const ns = [note({ label: 'agent error', note: 'wrong flight' })];
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(exportNotes('run.json', ns), 'utf8')]);
    // The CLI reads with Node's UTF-8 decoding, which keeps the mark as U+FEFF.
    const parsed = parseNotesExport(bytes.toString('utf8'));
    expect(parsed.ok && parsed.value.episodes).toEqual(ns);
  });

  it.each([
    ['with', Buffer.from([0xff, 0xfe])],
    ['without', Buffer.alloc(0)],
  ])('calls an export saved as UTF-16 (%s its byte-order mark) UTF-16, not "not JSON"', (_, mark) => {
    const bytes = Buffer.concat([mark, Buffer.from(exportNotes('run.json', [note({})]), 'utf16le')]);
    for (const text of [bytes.toString('utf8'), new TextDecoder().decode(bytes)]) {
      const r = parseNotesExport(text);
      expect(!r.ok && r.error).toBe('this file is not a tau-inspect notes export: it is UTF-16 text, not UTF-8: save it as UTF-8');
    }
  });

  it.each([
    ['not json', /not JSON/],
    ['{"episodes": []}', /no "format"/],
    ['[1, 2]', /no "format"/],
    ['{"format": "tau-inspect-notes", "version": 2, "episodes": []}', /version 2/],
    ['{"format": "tau-inspect-notes", "version": 1, "episodes": [{"fingerprint": "x"}]}', /episodes\[0\]\.fingerprint/],
    [`{"format": "tau-inspect-notes", "version": 1, "episodes": [{"fingerprint": "${fp('a')}", "label": "bad"}]}`, /episodes\[0\]\.label must be one of/],
  ])('says why %s is not an export', (text, why) => {
    const r = parseNotesExport(text);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(why);
  });

  it('merges: fills empty fields, keeps equal ones, reports conflicts and keeps the stored value', () => {
    const stored = [note({ label: 'agent error', note: 'mine', steps: { '1': 'same' } }), note({ fingerprint: fp('c'), note: '' })];
    const imported = [
      note({ label: 'other', note: 'theirs', steps: { '1': 'same', '4': 'new step note' } }),
      note({ fingerprint: fp('c'), note: 'filled' }),
      note({ fingerprint: fp('d'), label: 'evaluator blind spot' }),
      note({ fingerprint: fp('e') }),
    ];
    const m = mergeNotes(stored, imported);
    expect(m.added).toBe(1);
    expect(m.updated).toBe(2);
    expect(m.conflicts.map((c) => [c.field, c.kept, c.imported])).toEqual([
      ['label', 'agent error', 'other'],
      ['note', 'mine', 'theirs'],
    ]);
    const a = m.write.find((n) => n.fingerprint === fp('a'))!;
    expect(a).toMatchObject({ label: 'agent error', note: 'mine', steps: { '1': 'same', '4': 'new step note' } });
    expect(m.write.find((n) => n.fingerprint === fp('c'))!.note).toBe('filled');
    expect(m.write.map((n) => n.fingerprint)).not.toContain(fp('e'));
  });

  it('merging an export into the notes it came from changes nothing', () => {
    const ns = [note({ label: 'other', note: 'x', steps: { '0': 'y' } })];
    const m = mergeNotes(ns, ns);
    expect(m).toMatchObject({ write: [], added: 0, updated: 0, unchanged: 1, conflicts: [] });
  });
});
