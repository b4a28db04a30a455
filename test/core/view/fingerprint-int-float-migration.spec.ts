/**
 * Notes kept under fingerprint format 2, which wrote an int and an integer-valued float alike (`1` and `1.0`), once
 * format 3 tells them apart (issue #35 class 4, fingerprint-variants.spec.ts): a note attaches by its old key where
 * exactly one row of the file had it, and is reported where several did (a file holding both the 1 and the 1.0
 * variant) — for τ-bench episodes and τ² simulations, from records and from the file's text as the app keys rows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachNotes, InspectSession, legacyKeys, sha256Hex, type EpisodeNotes, type RowKeys } from '../../../src/core/contract';
import { parseJson } from '../../../src/core/py/json-parse';
import type { PyValue } from '../../../src/core/py/value';
import {
  episodeFingerprint,
  legacyEpisodeFingerprints,
  legacyTau2SimulationFingerprints,
  stableJson,
  tau2SimulationFingerprint,
} from '../../../src/core/view/fingerprint';

const episodeText = (amount: string, user = 'u1'): string =>
  `{"info": {"task": {"user_id": "${user}", "actions": []}}, "traj": [{"role": "assistant", "content": null, "tool_calls": [{"function": {"name": "refund", "arguments": {"amount": ${amount}}}}]}], "reward": 1.0}`;
const episode = (amount: string, user = 'u1'): PyValue => parseJson(episodeText(amount, user));
const row = (amount: string, user = 'u1'): RowKeys => ({
  fingerprint: episodeFingerprint({ raw: episode(amount, user) }),
  legacy: legacyEpisodeFingerprints({ raw: episode(amount, user) }),
});
/** The key a note made under format 2 was kept under: sha256 of format 2's text, written here from the definition. */
const format2 = (amount: string, user = 'u1'): string => {
  const raw = episode(amount, user) as Map<string, PyValue>;
  const task = (raw.get('info') as Map<string, PyValue>).get('task')!;
  return sha256Hex(`{"task":${stableJson(task, 2)},"traj":${stableJson(raw.get('traj')!, 2)}}`);
};

const note = (fingerprint: string, text: string): EpisodeNotes => ({
  fingerprint,
  label: 'agent error',
  note: text,
  steps: {},
  file: 'run.json',
  index: 0,
  taskId: 0,
  updatedAt: 'then',
});

describe('format 2 merged 1 and 1.0; format 3 keeps them apart', () => {
  it('the 1.0 episode had the 1 episode’s fingerprint; the 1 episode’s is unchanged', () => {
    expect(format2('1.0')).toBe(format2('1'));
    expect(row('1').fingerprint).toBe(format2('1'));
    expect(row('1').legacy).toEqual([]);
    expect(row('1.0').fingerprint).not.toBe(format2('1.0'));
    expect(row('1.0').legacy).toEqual([format2('1.0')]);
    expect(row('-0.0').legacy).toEqual([format2('0')]);
  });
});

describe('a note kept under format 2', () => {
  it('attaches to the 1.0 episode when no other row of the file had its old key', () => {
    const rows = [row('1.0'), row('2', 'u2'), row('1', 'u3')];
    const n = note(format2('1.0'), 'made under format 2');
    const { byIndex, ambiguous } = attachNotes(rows, [n]);
    expect([...byIndex]).toEqual([[0, n]]);
    expect(ambiguous).toEqual([]);
    expect(legacyKeys(rows).unique).toEqual(new Map([[0, [format2('1.0')]]]));
  });

  it('is reported as ambiguous where the file holds both the 1 and the 1.0 variant, and not shown on the 1.0 one', () => {
    const rows = [row('1'), row('1.0'), row('2', 'u2')];
    const n = note(format2('1'), 'on one of the two');
    const { byIndex, ambiguous } = attachNotes(rows, [n]);
    // Still the 1 episode's key today: shown there (as the report's words say), never on the 1.0 one.
    expect([...byIndex.keys()]).toEqual([0]);
    expect(ambiguous).toEqual([{ fingerprint: format2('1'), rows: [0, 1], notes: n }]);
    expect(legacyKeys(rows).unique.size).toBe(0);
  });

  it('-0.0 and 0.0 in one file: both had the 0 episode’s key, the note is reported on both', () => {
    const rows = [row('0.0'), row('-0.0')];
    const { byIndex, ambiguous } = attachNotes(rows, [note(format2('0'), 'zero')]);
    expect(byIndex.size).toBe(0);
    expect(ambiguous.map((a) => a.rows)).toEqual([[0, 1]]);
  });

  it('an episode holding both Infinity and 1.0 takes notes of format 1 and of format 2, and today’s win', () => {
    const amount = '[Infinity, 1.0]';
    const r = row(amount);
    expect(r.legacy).toHaveLength(2);
    const [f2, f1] = r.legacy as string[];
    expect(f2).toBe(format2(amount));
    for (const old of [f1!, f2!]) expect(attachNotes([r, row('3')], [note(old, 'old')]).byIndex.get(0)?.fingerprint).toBe(old);
    const now = note(r.fingerprint!, 'today');
    expect(attachNotes([r], [note(f1!, 'old'), now, note(f2!, 'old')]).byIndex.get(0)).toBe(now);
  });
});

describe('a τ-bench session keys the 1.0 episode’s format-2 fingerprint, from bytes and from records alike', () => {
  it('the app’s keys from the text (JSON.parse reads 1 and 1.0 as one number) are those of the values', () => {
    const run = JSON.parse(readFileSync(join(import.meta.dirname, '../../../sample-runs/runs/retail-sample.json'), 'utf8')) as { traj: unknown[] }[];
    // Episode 1 made episode 0 again, with an amount of 1.0 where episode 0 has 1; episode 2 has 1.5.
    run[1] = JSON.parse(JSON.stringify(run[0]));
    run.slice(0, 3).forEach((e, i) => e.traj.push({ role: 'assistant', content: null, amount: `__AMOUNT${i}__` }));
    const text = JSON.stringify(run).replace('"__AMOUNT0__"', '1').replace('"__AMOUNT1__"', '1.0').replace('"__AMOUNT2__"', '1.5');
    for (const session of [InspectSession.fromBytes(new TextEncoder().encode(text), {}, undefined, { keysLater: true }), new InspectSession(text)]) {
      const fps = run.map((_, i) => session.fingerprint(i));
      expect(fps).toEqual(session.records.map((r) => episodeFingerprint(r)));
      expect(fps[0]).not.toBe(fps[1]);
      expect([...session.legacyFingerprints()]).toEqual([[1, [fps[0]]]]);
    }
  });
});

describe('τ² simulations', () => {
  const sim = (amount: string, id = 's1'): PyValue =>
    parseJson(
      `{"id": "${id}", "task_id": "t1", "trial": 0, "messages": [{"role": "assistant", "content": null, "cost": 0.0, "tool_calls": [{"id": "c1", "name": "pay", "arguments": {"amount": ${amount}}, "requestor": "assistant"}]}]}`,
    );
  const simRow = (amount: string, id = 's1'): RowKeys => ({
    fingerprint: tau2SimulationFingerprint(null, sim(amount, id)),
    legacy: legacyTau2SimulationFingerprints(null, sim(amount, id)),
  });

  it('1 and 1.0 in a call’s arguments are two simulations; both had one format-2 fingerprint: a note under it is reported', () => {
    const rows = [simRow('1'), simRow('1.0')];
    expect(rows[0]!.fingerprint).not.toBe(rows[1]!.fingerprint);
    // `cost: 0.0` is an integer-valued float in both: both fingerprints changed, to one old one.
    expect(rows[0]!.legacy).toEqual(rows[1]!.legacy);
    const old = (rows[0]!.legacy as string[])[0]!;
    const { byIndex, ambiguous } = attachNotes(rows, [note(old, 'τ² note')]);
    expect(byIndex.size).toBe(0);
    expect(ambiguous).toEqual([{ fingerprint: old, rows: [0, 1], notes: note(old, 'τ² note') }]);
  });

  it('with one of them in the file, the note attaches to it', () => {
    const rows = [simRow('1.0'), simRow('1.0', 's2')];
    const old = (rows[0]!.legacy as string[])[0]!;
    expect([...attachNotes(rows, [note(old, 'τ² note')]).byIndex.keys()]).toEqual([0]);
  });
});
