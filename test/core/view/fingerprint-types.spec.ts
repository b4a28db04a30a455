/**
 * Fingerprints that keep JSON's types (issue #35 class 4): notes are kept under an episode's or a τ² simulation's
 * fingerprint, which did not tell Infinity from "Infinity", NaN from "NaN", nor 2^53+1 from its digits, so a note
 * written on one showed on the other. Today's fingerprint tells them apart; every other episode keeps the
 * fingerprint it had, and a note kept under an old one attaches where no other row had it, and is reported where
 * several did.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachNotes, InspectSession, legacyKeys, type EpisodeNotes } from '../../../src/core/contract';
import { parseJson } from '../../../src/core/py/json-parse';
import type { PyValue } from '../../../src/core/py/value';
import {
  episodeFingerprint,
  legacyEpisodeFingerprints,
  legacyTau2SimulationFingerprints,
  tau2SimulationFingerprint,
  textFingerprint,
} from '../../../src/core/view/fingerprint';

/** An episode whose one tool call has `amount` as given (JSON text). */
const episode = (amount: string): PyValue =>
  parseJson(
    `{"info": {"task": {"user_id": "u1", "actions": []}}, "traj": [{"role": "assistant", "content": null, "tool_calls": [{"function": {"name": "refund", "arguments": {"amount": ${amount}}}}]}]}`,
  );
const fp = (amount: string): string => episodeFingerprint({ raw: episode(amount) });
/** The episode's fingerprint of format 1 (before fingerprints kept JSON's types), where it differs from today's. */
const old = (amount: string): string | null => legacyEpisodeFingerprints({ raw: episode(amount) }).at(-1) ?? null;

const PAIRS: [string, string][] = [
  ['Infinity', '"Infinity"'],
  ['-Infinity', '"-Infinity"'],
  ['NaN', '"NaN"'],
  ['9007199254740993', '"9007199254740993"'],
  ['-9007199254740993', '"-9007199254740993"'],
];

const note = (fingerprint: string, text: string): EpisodeNotes => ({
  fingerprint,
  label: 'agent error',
  note: text,
  steps: {},
  file: null,
  index: null,
  taskId: null,
  updatedAt: 't',
});

describe('the fingerprint keeps JSON types', () => {
  it.each(PAIRS)('%s and %s: two fingerprints (the old format gave one)', (a, b) => {
    expect(fp(a)).not.toBe(fp(b));
    // The old one of the value is the string's fingerprint: that is what let a note land on the other.
    expect(old(a)).toBe(fp(b));
    expect(old(b)).toBeNull();
    // From the text, as the app keys rows, the same.
    const text = JSON.stringify({ info: { task: { user_id: 'u1', actions: [] } }, traj: [] }).replace('[]}', `[${a}]}`);
    expect(textFingerprint(text)).toBe(episodeFingerprint({ raw: parseJson(text) }));
  });

  it('1e400 and Infinity are one value to Python (json.loads reads both as inf), so one fingerprint', () => {
    expect(fp('1e400')).toBe(fp('Infinity'));
  });

  it('an episode without NaN, Infinity, big ints or integer-valued floats keeps the fingerprint it had (no migration)', () => {
    for (const a of ['1', '1.5', '"x"', '9007199254740992', '1e-300', '[1, {"b": null}]'])
      expect(legacyEpisodeFingerprints({ raw: episode(a) }), a).toEqual([]);
    // An integer-valued float (1e300 is one) had format 2's fingerprint, written as an int's digits.
    expect(legacyEpisodeFingerprints({ raw: episode('1e300') })).toHaveLength(1);
  });

  it('τ²: a simulation with Infinity and one with "Infinity" in a call’s arguments are two simulations', () => {
    const sim = (amount: string): PyValue =>
      parseJson(
        `{"id": "s1", "task_id": "t1", "trial": 0, "messages": [{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "name": "pay", "arguments": {"amount": ${amount}}, "requestor": "assistant"}]}]}`,
      );
    expect(tau2SimulationFingerprint(null, sim('Infinity'))).not.toBe(tau2SimulationFingerprint(null, sim('"Infinity"')));
    expect(legacyTau2SimulationFingerprints(null, sim('Infinity'))).toEqual([tau2SimulationFingerprint(null, sim('"Infinity"'))]);
    expect(legacyTau2SimulationFingerprints(null, sim('"Infinity"'))).toEqual([]);
    expect(tau2SimulationFingerprint(null, sim('NaN'))).not.toBe(tau2SimulationFingerprint(null, sim('"NaN"')));
  });
});

describe('notes kept under an old fingerprint', () => {
  it('attach to the row that alone had it', () => {
    const rows = [{ fingerprint: fp('1') }, { fingerprint: fp('Infinity'), legacy: old('Infinity') }];
    const n = note(old('Infinity')!, 'made before');
    const { byIndex, ambiguous } = attachNotes(rows, [n]);
    expect([...byIndex]).toEqual([[1, n]]);
    expect(ambiguous).toEqual([]);
  });

  it('where two rows had it (the value and its string): attached by it to neither, reported; the string keeps it as today’s key', () => {
    const rows = [{ fingerprint: fp('"Infinity"') }, { fingerprint: fp('Infinity'), legacy: old('Infinity') }, { fingerprint: fp('2') }];
    const n = note(fp('"Infinity"'), 'on one of the two');
    const { byIndex, ambiguous } = attachNotes(rows, [n]);
    // Before: "notes on 2 of 1 noted simulations". Now the row with the number does not show it.
    expect([...byIndex.keys()]).toEqual([0]);
    expect(ambiguous).toEqual([{ fingerprint: fp('"Infinity"'), rows: [0, 1], notes: n }]);
    expect(legacyKeys(rows).unique.size).toBe(0);
  });

  it('a note under today’s fingerprint wins over one under the old', () => {
    const rows = [{ fingerprint: fp('NaN'), legacy: old('NaN') }];
    const now = note(fp('NaN'), 'today');
    expect(attachNotes(rows, [note(old('NaN')!, 'before'), now]).byIndex.get(0)).toBe(now);
  });
});

describe('a τ-bench session keeps the old fingerprints of the episodes whose fingerprint changed', () => {
  it('read from bytes (the app keys rows from their text) and from records (the CLI), alike', () => {
    const run = JSON.parse(readFileSync(join(import.meta.dirname, '../../../sample-runs/runs/retail-sample.json'), 'utf8')) as { traj: unknown[] }[];
    run[2]!.traj.push({ role: 'assistant', content: '__INF__' });
    const text = JSON.stringify(run).replace('"__INF__"', 'Infinity');
    for (const session of [InspectSession.fromBytes(new TextEncoder().encode(text), {}, undefined, { keysLater: true }), new InspectSession(text)]) {
      const fps = run.map((_, i) => session.fingerprint(i));
      expect(fps[2]).toBe(episodeFingerprint(session.records[2]!));
      expect([...session.legacyFingerprints()]).toEqual([[2, legacyEpisodeFingerprints(session.records[2]!)]]);
      expect(session.legacyFingerprints().get(2)).toHaveLength(1);
      expect(session.legacyFingerprints().get(2)).not.toContain(fps[2]);
    }
  });
});
