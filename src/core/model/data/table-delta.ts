import { compareCodePoints } from '../../py/hashable';
import type { PyValue } from '../../py/value';

type Table = ReadonlyMap<string, PyValue>;

/**
 * How table `a` departs from table `b`, record by record: `changed` are the keys of `a` whose
 * record is not `b`'s own object (or that `b` lacks), `removed` the keys `b` has and `a` lacks.
 * Both sorted by code points. A record changed back to an equal but new object counts as changed
 * (identity, not text: callers that need the text compare it).
 */
export interface TableDelta {
  readonly changed: readonly string[];
  readonly removed: readonly string[];
}

/**
 * What is known of a frozen table's lineage: it derives from the frozen table `root`, and every key
 * outside `touched` holds in it the very record object it holds in `root` (present in both or
 * absent from both). `touched` may hold keys that did not change after all: callers check each.
 */
interface Lineage {
  readonly root: Table;
  readonly touched: ReadonlySet<string>;
}

const lineages = new WeakMap<Table, Lineage>();
const memo = new WeakMap<Table, WeakMap<Table, TableDelta>>();

const EMPTY: TableDelta = Object.freeze({ changed: Object.freeze([]), removed: Object.freeze([]) });

/**
 * Records that the frozen table `after` was made from the frozen table `before` by writes at
 * `keys` only (every other key holds the same record object in both, or is absent from both).
 * Only for what is exact (the drafts of one `writeDb`): anything else is never noted, and a
 * table with no lineage is compared by a full scan.
 */
export function noteDerived(before: Table, after: Table, keys: Iterable<string>): void {
  if (before === after || !Object.isFrozen(before) || !Object.isFrozen(after) || lineages.has(after)) return;
  const from = lineages.get(before);
  const touched = new Set(from?.touched);
  for (const k of keys) touched.add(k);
  lineages.set(after, { root: from?.root ?? before, touched });
}

/** Whether `table` is known to derive from `root` by recorded writes (so comparing them looks at those keys only). */
export function derivesFrom(table: Table, root: Table): boolean {
  return lineages.get(table)?.root === root;
}

/** The keys where `a` and `b` may differ, when their lineages meet (null: not known, scan). */
function candidates(a: Table, b: Table): ReadonlySet<string> | Iterable<string> | null {
  const la = lineages.get(a);
  const lb = lineages.get(b);
  if (la && la.root === b) return la.touched;
  if (lb && lb.root === a) return lb.touched;
  if (la && lb && la.root === lb.root) return la.touched.size === 0 ? lb.touched : lb.touched.size === 0 ? la.touched : new Set([...la.touched, ...lb.touched]);
  return null;
}

/** `tableDelta` by looking at every record of both tables (what lineage saves; kept for tests and unknown lineage). */
export function fullTableDelta(a: Table, b: Table): TableDelta {
  const changed: string[] = [];
  const removed: string[] = [];
  a.forEach((rec, key) => {
    if (b.get(key) !== rec || !b.has(key)) changed.push(key);
  });
  b.forEach((_rec, key) => {
    if (!a.has(key)) removed.push(key);
  });
  return { changed: changed.sort(compareCodePoints), removed: removed.sort(compareCodePoints) };
}

/**
 * How `a` departs from `b` (see `TableDelta`): from the two tables' lineage when they derive from
 * one root (only the keys written since are looked at), else by a full scan. Remembered per pair
 * of frozen tables.
 */
export function tableDelta(a: Table, b: Table): TableDelta {
  if (a === b) return EMPTY;
  const cacheable = Object.isFrozen(a) && Object.isFrozen(b);
  if (cacheable) {
    const hit = memo.get(a)?.get(b);
    if (hit) return hit;
  }
  const keys = cacheable ? candidates(a, b) : null;
  let delta: TableDelta;
  if (keys === null) delta = fullTableDelta(a, b);
  else {
    const changed: string[] = [];
    const removed: string[] = [];
    for (const key of keys) {
      const inA = a.has(key);
      const inB = b.has(key);
      if (inA && (!inB || a.get(key) !== b.get(key))) changed.push(key);
      else if (!inA && inB) removed.push(key);
    }
    delta = { changed: changed.sort(compareCodePoints), removed: removed.sort(compareCodePoints) };
  }
  if (cacheable) {
    let m = memo.get(a);
    if (!m) memo.set(a, (m = new WeakMap()));
    m.set(b, delta);
  }
  return delta;
}
