import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../src/core/py/json-parse';
import type { PyValue } from '../../../src/core/py/value';
import { episodeFingerprint, stableJson, textFingerprint, typesMatter } from '../../../src/core/view/fingerprint';
import { jsonDumps } from '../../../src/core/py/json-dumps';
import { sampleRunText } from '../../support/fixtures';
import { asRead, fingerprintCorpusCases, reference, tau2Fingerprints } from './fingerprint-corpus.cases';

/**
 * Notes are stored under an episode's fingerprint, so its text may never change: `stableJson` (written
 * straight from the Python values, issue 20 item 7) must be `fast-json-stable-stringify(plainJson(v))`,
 * what the fingerprint was first made of, character for character.
 */

const pyValue: fc.Arbitrary<PyValue> = fc.letrec<{ v: PyValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.string({ unit: 'binary' }),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
    fc.double(),
    fc.constantFrom(0, -0, 1e21, 1e-7, 2 ** 53, -(2 ** 53) - 2, NaN, Infinity, -Infinity, 1000),
    fc.array(tie('v'), { maxLength: 4 }),
    fc
      .array(fc.tuple(fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('__proto__', '10', '2', 'a', 'B', 'é', '😀')), tie('v')), { maxLength: 5 })
      .map((kv) => new Map(kv)),
  ),
})).v;

describe('stableJson is the text the fingerprint was first made of', () => {
  it('for any Python value (ints past 2^53, non-finite floats, -0, keys that sort by UTF-16 units, __proto__)', () => {
    fc.assert(
      // Today's text keeps JSON's types (test/core/view/fingerprint-types.spec.ts); the old one, `legacy`, is the reference.
      fc.property(pyValue, (v) => stableJson(v, 1) === reference(v) && (typesMatter(v) || stableJson(v, 2) === reference(v))),
      { numRuns: 2000 },
    );
  });

  it('for every episode of the sample run', () => {
    for (const e of parseJson(sampleRunText()) as PyValue[]) expect(stableJson(e, 1)).toBe(reference(e));
  });
});

/**
 * The app computes a τ-bench row's fingerprint after the episode was read, from its text again (`textFingerprint`:
 * the engine's JSON.parse, the Python-exact reader where the two may read a number differently): it must be the
 * fingerprint of the episode as read (`episodeFingerprint` of its Python values), always.
 */

describe('a τ-bench episode’s fingerprint from its text is the one of its Python values', () => {
  it('for any episode (ints past 2^53, NaN and Infinity, floats that overflow, -0, __proto__, keys given twice)', () => {
    const episode = fc.tuple(pyValue, pyValue, fc.boolean()).map(([task, traj, swap]) => {
      const info = new Map<string, PyValue>([['task', task]]);
      return new Map<string, PyValue>(
        swap
          ? [
              ['traj', traj],
              ['info', info],
            ]
          : [
              ['info', info],
              ['traj', traj],
            ],
      );
    });
    fc.assert(
      fc.property(episode, (e) => {
        const text = jsonDumps(e);
        return textFingerprint(text) === asRead(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('for texts JSON.parse reads otherwise than Python', () => {
    const cases = [
      '{"info": {"task": {"n": 9007199254740993}}, "traj": []}',
      '{"info": {"task": {"n": 9007199254740992}}, "traj": [1.0, 1, -0, -0.0]}',
      '{"info": {"task": {"n": 12345678901234567890.0}}, "traj": [1e400, -1e400, 1e308]}',
      '{"info": {"task": NaN}, "traj": [Infinity, -Infinity]}',
      '{"info": {"task": 1, "task": {"b": 2, "a": 1}}, "traj": {"__proto__": [1], "x": 2, "x": 3}}',
      '{"traj": "no info"}',
      '{"info": [1], "traj": null}',
      '{"info": {"task": "\\ud800 \\udfff \\u00e9"}, "traj": [{"😀": 1, "é": 2, "B": 3, "a": 4, "10": 5, "2": 6}]}',
    ];
    for (const text of cases) expect(textFingerprint(text), text).toBe(asRead(text));
    // Two texts Python reads apart, JSON.parse alike: still apart.
    expect(textFingerprint(cases[0]!)).not.toBe(textFingerprint(cases[0]!.replace('93', '92')));
  });

  it('for every episode of the sample run', () => {
    for (const e of parseJson(sampleRunText()) as PyValue[]) {
      const text = jsonDumps(e);
      expect(textFingerprint(text)).toBe(episodeFingerprint({ raw: e }));
    }
  });
});

describe('a τ² simulation’s fingerprint is the one it was first made of', () => {
  it('for every simulation of the τ² sample run (written from the Python values, each task’s text made once)', () => {
    const { got, want } = tau2Fingerprints(readFileSync(join(import.meta.dirname, '../../../sample-runs/runs/tau2-mock-sample.json'), 'utf8'));
    expect(got).toEqual(want);
    expect(new Set(got).size).toBe(got.length);
  });
});

// Every episode of ../shared/runs and every simulation of ../shared/tau2/runs are in the soak
// (test/soak/fingerprint.spec.ts); one run of each here.
fingerprintCorpusCases({
  runs: ['qwen3-8b-react-retail.json', 'grok-4-fast-act-airline.json'],
  minEpisodes: 50,
  tau2Runs: ['sierra-research__gym-gpt-4.1-retail.json'],
  minSimulations: 30,
});
