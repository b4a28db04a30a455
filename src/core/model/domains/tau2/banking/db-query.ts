/**
 * banking_knowledge's in-memory table access (db_query.py): `query_database_tool` and its text, `query_db`
 * with `field__op` constraints, `add_to_db`, `update_record_in_db`.
 */
import { PyException } from '../../../../py/errors';
import { contains, eq, ge, gt, le, lt } from '../../../../py/ops';
import { tTypeName, type PydModel, type TDict, type TValue } from '../../../../py/pydantic';
import type { PyValue } from '../../../../py/value';
import { ownRow, ownTable } from './copy';
import { get, loads, repr, s, truthy } from './py';

/** The tables `_load_databases` offers to queries, in its order (every TransactionalDB field has them). */
export const QUERY_TABLES: readonly string[] = [
  'users',
  'accounts',
  'referrals',
  'credit_card_applications',
  'user_discoverable_tools',
  'user_discoverable_tool_calls',
  'agent_discoverable_tools',
  'task_config',
  'verification_history',
  'credit_card_transaction_history',
  'cash_back_disputes',
  'bank_account_transaction_history',
  'credit_card_accounts',
  'human_transfer_requests',
  'transaction_disputes',
  'credit_card_orders',
  'credit_card_closure_reasons',
  'credit_card_account_flags',
  'debit_cards',
  'debit_card_orders',
  'debit_card_disputes',
  'credit_limit_increase_requests',
  'payment_history',
];

/** `getattr(db, name).data`, or null when the DB has no such table. */
export function tableData(db: PydModel, name: string): TDict | null {
  if (!db.fields.has(name)) return null;
  const t = db.get(name) as PydModel;
  return t.get('data') as TDict;
}

/** `self.db.<name>.data` of a table the DB always has. */
export const data = (db: PydModel, name: string): TDict => tableData(db, name)!;

const pv = (v: TValue): PyValue => v as PyValue;

// Python parity: db_query._get_comparison_op (an unknown operator compares with ==).
function compare(op: string, a: TValue, b: TValue): boolean {
  switch (op) {
    case 'ne':
      return !eq(pv(a), pv(b));
    case 'gt':
      return gt(pv(a), pv(b));
    case 'gte':
      return ge(pv(a), pv(b));
    case 'lt':
      return lt(pv(a), pv(b));
    case 'lte':
      return le(pv(a), pv(b));
    case 'contains':
      return a !== null && contains(pv(a), pv(b));
    case 'startswith':
      return a !== null && s(a).startsWith(s(b));
    case 'endswith':
      return a !== null && s(a).endsWith(s(b));
    case 'in':
      return contains(pv(b), pv(a));
    case 'nin':
      return !contains(pv(b), pv(a));
    default:
      return eq(pv(a), pv(b));
  }
}

// Python parity: db_query._record_matches (a TypeError or ValueError of a comparison is no match).
function matches(record: TValue, constraints: TDict): boolean {
  for (const [key, expected] of constraints) {
    const cut = key.lastIndexOf('__');
    const [field, op] = cut >= 0 && key.includes('__') ? [key.slice(0, cut), key.slice(cut + 2)] : [key, 'eq'];
    const actual = get(record, field);
    try {
      if (!compare(op, actual, expected)) return false;
    } catch (e) {
      if (e instanceof PyException && (e.pyType === 'TypeError' || e.pyType === 'ValueError')) return false;
      throw e;
    }
  }
  return true;
}

/** `query_db(name, db, return_ids=True, **constraints)`: the matching (id, record) pairs in table order. */
export function queryDb(db: PydModel, name: string, constraints: TDict): [string, TValue][] {
  const table = QUERY_TABLES.includes(name) ? tableData(db, name) : null;
  if (table === null) return [];
  const out: [string, TValue][] = [];
  for (const [id, r] of table) if (matches(r, constraints)) out.push([id, r]);
  return out;
}

/** The listing `query_database_tool` writes for (id, record) pairs. */
export function formatRecords(name: string, rows: readonly [string, TValue][]): string {
  const lines = [`Found ${rows.length} record(s) in '${name}':\n`];
  rows.forEach(([id, r], i) => {
    lines.push(`${i + 1}. Record ID: ${id}`);
    for (const [field, value] of r as TDict) lines.push(`   ${field}: ${s(value)}`);
    lines.push('');
  });
  return lines.join('\n');
}

/** `query_database_tool(name, constraints, db)`: the text tools show, never raising. */
// Python parity: db_query.query_database_tool (JSON errors and every other exception answered in words).
export function queryDatabaseTool(db: PydModel, name: string, constraints: TValue): string {
  try {
    if (!QUERY_TABLES.includes(name)) return `Error: Database '${name}' not found. Available: ${repr([...QUERY_TABLES])}`;
    let dict: TValue = new Map();
    if (truthy(constraints)) {
      const r = loads(constraints, false);
      if ('error' in r) return `Error: Invalid JSON: ${r.error}`;
      dict = r.value;
    }
    if (!(dict instanceof Map))
      throw new PyException('TypeError', `tau2.domains.banking_knowledge.db_query.query_db() argument after ** must be a mapping, not ${tTypeName(dict)}`);
    for (const k of ['db', 'return_ids'])
      if (dict.has(k)) throw new PyException('TypeError', `tau2.domains.banking_knowledge.db_query.query_db() got multiple values for keyword argument '${k}'`);
    if (dict.has('db_name')) throw new PyException('TypeError', `query_db() got multiple values for argument 'db_name'`);
    const rows = queryDb(db, name, withoutLimit(dict));
    const limit = dict.get('limit');
    const limited = limitRows(rows, limit ?? null);
    if (limited.length === 0) return `No records found in '${name}'.`;
    return formatRecords(name, limited);
  } catch (e) {
    if (e instanceof PyException) return `Error querying database: ${e.text}`;
    throw e;
  }
}

const withoutLimit = (d: TDict): TDict => (d.has('limit') ? new Map([...d].filter(([k]) => k !== 'limit')) : d);

// Python parity: query_db's `limit` (`len(results) >= limit` after each match).
function limitRows(rows: [string, TValue][], limit: TValue): [string, TValue][] {
  if (limit === null) return rows;
  const out: [string, TValue][] = [];
  for (const r of rows) {
    out.push(r);
    if (ge(BigInt(out.length), pv(limit))) break;
  }
  return out;
}

/** `add_to_db(name, id, record, db)`: false when the table is missing or the id taken. */
export function addToDb(db: PydModel, name: string, id: string, record: TDict): boolean {
  const table = tableData(db, name);
  if (table === null || table.has(id)) return false;
  ownTable(db, name)!.set(id, record);
  return true;
}

/** `update_record_in_db(name, db, id, updates)`. */
export function updateRecord(db: PydModel, name: string, id: TValue, updates: readonly [string, TValue][]): boolean {
  const table = tableData(db, name);
  if (table === null || typeof id !== 'string' || !table.has(id)) {
    if (Array.isArray(id) || id instanceof Map) throw new PyException('TypeError', `unhashable type: '${Array.isArray(id) ? 'list' : 'dict'}'`);
    return false;
  }
  const r = ownRow(db, name, id) as TDict;
  for (const [k, v] of updates) r.set(k, v);
  return true;
}

/** The query tools' constraint text: `f'{{"{field}": "{value}"}}'`. */
export const constraint = (field: string, value: TValue): string => `{"${field}": "${s(value)}"}`;

/** Whether a query's text found nothing (`"No records found" in result or "No results found" in result`). */
export const noRecords = (text: string): boolean => text.includes('No records found') || text.includes('No results found');
