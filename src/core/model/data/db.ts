import { freeze } from 'immer';
import { parseJson } from '../../py/json-parse';
import type { PyDict } from '../../py/value';

export type Domain = 'retail' | 'airline';
export const DOMAINS: readonly Domain[] = ['retail', 'airline'];

/** The tables of each domain's DB, in `load_data()` order (file name = table + `.json`). */
export const DOMAIN_TABLES: Readonly<Record<Domain, readonly string[]>> = {
  retail: ['orders', 'products', 'users'],
  airline: ['flights', 'reservations', 'users'],
};

/**
 * A DB state: `{table: {key: record}}` as τ-bench's `load_data()` returns it. States are
 * frozen; tools change them through immer, so consecutive states share unchanged records.
 */
export type Db = PyDict;

/** Parses a domain's data files (JSON text per table) into a frozen DB. */
export function buildDb(domain: Domain, texts: Readonly<Record<string, string>>): Db {
  const db: Db = new Map();
  for (const table of DOMAIN_TABLES[domain]) {
    const text = texts[table];
    if (text === undefined) throw new Error(`missing ${domain}/data/${table}.json`);
    const value = parseJson(text, { freeze: true });
    if (!(value instanceof Map)) throw new Error(`${domain}/data/${table}.json is not a JSON object`);
    db.set(table, value);
  }
  return freeze(db);
}
