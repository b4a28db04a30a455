import { frozen, parseJson } from '../../py/json-parse';
import type { PyDict, PyValue } from '../../py/value';

export type Domain = 'retail' | 'airline';
export const DOMAINS: readonly Domain[] = ['retail', 'airline'];

/** The tables of each domain's DB, in `load_data()` order (file name = table + `.json`). */
export const DOMAIN_TABLES: Readonly<Record<Domain, readonly string[]>> = {
  retail: ['orders', 'products', 'users'],
  airline: ['flights', 'reservations', 'users'],
};

/**
 * A DB state: `{table: {key: record}}` as τ-bench's `load_data()` returns it. States are
 * frozen; tools change them through `writeDb` (copy on write), so consecutive states share unchanged records.
 */
export type Db = PyDict;

/**
 * Parses a domain's data files (JSON text per table) into a frozen DB. `parsed`: tables parsed already, by their
 * text — a data file the same in two data versions (airline's flights and reservations at both known commits) is
 * then one frozen table in both DBs, parsed once, and the work a hasher keeps per record (its text, its keys'
 * order) is done once for both.
 */
export function buildDb(domain: Domain, texts: Readonly<Record<string, string>>, parsed?: Map<string, PyDict>): Db {
  const db: Db = new Map();
  for (const table of DOMAIN_TABLES[domain]) {
    const text = texts[table];
    if (text === undefined) throw new Error(`missing ${domain}/data/${table}.json`);
    let value: PyValue | undefined = parsed?.get(text);
    if (value === undefined) {
      value = parseJson(text, { freeze: true });
      if (!(value instanceof Map)) throw new Error(`${domain}/data/${table}.json is not a JSON object`);
      parsed?.set(text, value);
    }
    db.set(table, value);
  }
  return frozen(db);
}

/**
 * A DB that went through structured clone (e.g. read back from IndexedDB), frozen again like
 * a parsed one, so `writeDb` shares its records and hashes cache by identity. Throws when the
 * value is not a DB of `domain` (every table a dict) or holds a value JSON cannot.
 */
export function reviveDb(domain: Domain, value: unknown): Db {
  if (!(value instanceof Map)) throw new Error('not a DB (expected a dict of tables)');
  for (const table of DOMAIN_TABLES[domain]) if (!(value.get(table) instanceof Map)) throw new Error(`not a ${domain} DB (table ${table} missing)`);
  // forEach and index loops: no entry arrays allocated for the ~10^5 values of a DB.
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'undefined') throw new Error(`not a DB (holds a ${typeof v})`);
      return;
    }
    if (Object.isFrozen(v)) return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) walk(v[i]);
      frozen(v as PyValue[]);
    } else if (v instanceof Map) {
      v.forEach(visit);
      frozen(v as PyDict);
    } else throw new Error('not a DB (holds an object that is neither a dict nor a list)');
  };
  const visit = (x: unknown, k: unknown): void => {
    if (typeof k !== 'string') throw new Error('not a DB (a dict key is not a string)');
    walk(x);
  };
  value.forEach((table) => walk(table));
  return frozen(value as Db);
}
