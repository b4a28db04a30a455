import { createHash } from 'node:crypto';
import { produce } from '../../support/immer';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../src/core/model/data/db';
import { DbHasher } from '../../../src/core/model/data/db-hash';
import { consistentHash, sha256Hex } from '../../../src/core/py/hash';
import { parseJson } from '../../../src/core/py/json-parse';
import { sha256Backend, sha256Stream, setHostSha256, withSha256Fallback } from '../../../src/core/py/sha256';
import type { PyDict } from '../../../src/core/py/value';
import { sampleVersion } from '../../support/fixtures';

const nodeSha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

const TEXTS: readonly (readonly [string, string])[] = [
  ['empty', ''],
  ['ascii', "(('users', (('u1', (('name', 'Ann'),)),)),)"],
  ['non-ASCII (2-, 3- and 4-byte UTF-8)', 'Zoë — 東京 🚀 ü'],
  ['one block minus the padding', 'x'.repeat(55)],
  ['one block exactly', 'y'.repeat(64)],
  ['longer than the 64 KB buffer of DbHasher', 'Müller, '.repeat(20_000)],
];

/**
 * Every other spec hashes with the WebAssembly sha256 (test/support/setup-sha256.ts), as the app
 * and the CLI do after `prepareSha256`. This spec is the one place that runs the pure-TS
 * fallback, which is what hashing uses until (or if never) the WASM module has loaded.
 */
describe('sha256 backends', () => {
  it('the test setup loaded the WASM sha256', () => expect(sha256Backend()).toBe('wasm'));

  it('withSha256Fallback switches to the pure-TS sha256 and back', () => {
    expect(withSha256Fallback(() => sha256Backend())).toBe('fallback');
    expect(sha256Backend()).toBe('wasm');
    expect(() =>
      withSha256Fallback(() => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(sha256Backend()).toBe('wasm');
  });

  it.each(TEXTS)('both give node:crypto sha256 of the UTF-8 (%s)', (_name, text) => {
    const want = nodeSha256(text);
    expect(sha256Hex(text)).toBe(want);
    expect(withSha256Fallback(() => sha256Hex(text))).toBe(want);
  });

  it('the host’s sha256 (the CLI’s node:crypto) once given: the same hashes, midstates as copies, and gone again with null', () => {
    setHostSha256(() => createHash('sha256'));
    try {
      expect(sha256Backend()).toBe('host');
      for (const [, text] of TEXTS) expect(sha256Hex(text)).toBe(nodeSha256(text));
      const text = 'déjà '.repeat(5000);
      const a = sha256Stream();
      a.update(text.slice(0, 777));
      const saved = a.save();
      a.update('thrown away');
      const b = sha256Stream();
      b.load(saved);
      b.update(new TextEncoder().encode(text.slice(777)));
      expect(b.hex()).toBe(nodeSha256(text));
      expect(withSha256Fallback(() => sha256Backend())).toBe('fallback');
      expect(sha256Backend()).toBe('host');
    } finally {
      setHostSha256(null);
    }
    expect(sha256Backend()).toBe('wasm');
  });

  it('the fallback stream saves and resumes its state mid-text', () => {
    const text = 'abc'.repeat(1000) + 'Ωmega';
    const hex = withSha256Fallback(() => {
      const a = sha256Stream();
      a.update(text.slice(0, 1234));
      const saved = a.save();
      a.update('garbage that is thrown away');
      const b = sha256Stream();
      b.load(saved);
      b.update(text.slice(1234));
      return b.hex();
    });
    expect(hex).toBe(nodeSha256(text));
  });

  it('DbHasher gives the same DB hashes (from midstates too) under the fallback', () => {
    const base = sampleVersion().db;
    const derived = produce(base, (d) => {
      const users = (d as PyDict).get('users') as PyDict;
      const last = [...users.keys()].sort().at(-1)!;
      (users.get(last) as PyDict).set('name', parseJson('{"first_name": "Zoë", "last_name": "Ω"}'));
    }) as Db;
    const wasm = [consistentHash(base), consistentHash(derived)];
    expect(wasm[0]).not.toBe(wasm[1]);
    const fallback = withSha256Fallback(() => {
      const hasher = new DbHasher(base, 4096);
      return [hasher.hash(base), hasher.hash(derived), consistentHash(derived)];
    });
    expect(fallback).toEqual([wasm[0], wasm[1], wasm[1]]);
  });

  it('a DbHasher restored under the host’s sha256 (whose midstates no snapshot carries) makes them again: derived states hash from them, alike', () => {
    const base = sampleVersion().db;
    const derived = produce(base, (d) => {
      const users = (d as PyDict).get('users') as PyDict;
      const last = [...users.keys()].sort().at(-1)!;
      (users.get(last) as PyDict).set('name', 'Ω');
    }) as Db;
    const want = consistentHash(derived);
    setHostSha256(() => createHash('sha256'));
    try {
      const first = new DbHasher(base, 1024);
      expect(first.midstates).toBeGreaterThan(0);
      const snap = first.snapshot();
      expect(snap.engine).toBe('host');
      expect(snap.checkpoints).toEqual([]);
      const again = DbHasher.restore(base, snap)!;
      expect(again.midstates).toBe(first.midstates);
      expect(again.initialHash).toBe(first.initialHash);
      expect(again.hash(derived)).toBe(want);
      // A snapshot whose base hash is not the base's text: not taken.
      expect(DbHasher.restore(base, { ...snap, baseHash: '0'.repeat(64) })).toBeNull();
      // Nor one whose texts (same lengths) do not give its hash: and the texts it seeded are let go of, so a hasher made
      // afterwards prints the records again and hashes them right.
      const bytes = new Uint8Array(snap.bytes);
      const at = bytes.lastIndexOf(0x61);
      bytes[at] = 0x62;
      expect(DbHasher.restore(base, { ...snap, bytes })).toBeNull();
      expect(new DbHasher(base, 1024).initialHash).toBe(first.initialHash);
      expect(new DbHasher(base, 1024).hash(derived)).toBe(want);
    } finally {
      setHostSha256(null);
    }
  });
});
