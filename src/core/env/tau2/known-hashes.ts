/**
 * The DB hasher's memo as text, for a cache kept between processes (the CLI's `.hashes` files): one line per hash,
 * `<digest of the DB's description> <hash> <check>`. The digest names the DB's text exactly relative to its base's
 * (the base's bytes by their places, every other byte as itself: `Tau2DbHasher.hash`'s memo key), so a line holds for
 * any process whose base has the same text (`Tau2DbHasher.baseHash`); the check (the first 16 hex digits of the sha256
 * of the rest) keeps a damaged line from ever being taken for a hash.
 */
import { sha256Hex } from '../../py/hash';

const LINE = /^([0-9a-f]{64}) ([0-9a-f]{64}) ([0-9a-f]{16})$/;
const line = (key: string, hex: string): string => `${key} ${hex} ${sha256Hex(`${key} ${hex}`).slice(0, 16)}\n`;

/** The entries as lines. */
export const knownHashesText = (entries: readonly (readonly [string, string])[]): string => entries.map(([key, hex]) => line(key, hex)).join('');

/** The entries of the lines whose check fits (any other line is passed over). */
export function knownHashesOf(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (const l of text.split('\n')) {
    const m = LINE.exec(l);
    if (m !== null && line(m[1]!, m[2]!) === `${l}\n`) out.push([m[1]!, m[2]!]);
  }
  return out;
}
