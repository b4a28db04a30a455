import { frozen } from '../py/json-parse';
import type { PyDict, PyValue } from '../py/value';
import { DictView } from './dict-view';
import { OverlayDict } from './overlay';

/**
 * Copy-on-write drafts of a frozen DB, for one tool call: the next DB is made of new copies of the
 * dicts and lists the call changed (and their ancestors) and the very objects of everything else.
 * Reading copies nothing: a dict draft keeps its writes beside the dict it drafts, and a record
 * read through it is drafted in turn (a list draft copies its list, shallowly, when first seen).
 *
 * What the next DB is, is what immer's `produce` (Map/Set and patches enabled, auto-freeze) made
 * before, case by case:
 * - A container counts as changed (so it and its ancestors are copied) from its first write that
 *   changes what it holds: assigning a dict key the value it already holds (`!==`) does nothing,
 *   nor does assigning a list slot the value it holds (`Object.is` until the list changed, then `===`
 *   or both NaN). So a float 0.0 assigned where -0.0 is keeps -0.0 (immer's, not Python's: blame's
 *   `WriteTracker` stores 0.0). A change undone later still leaves a new (equal) copy.
 * - A draft is made per place a container is read from: the same frozen object reached by two paths
 *   gives two drafts, and a write through one is not seen through the other (the next DB holds the
 *   copy at the path written through and the old object at the other).
 * - A value the tool stored (a dict or list it built, or a draft) is returned as it is when read
 *   back, so the tool writes into it in place; the drafts inside are replaced by what they end as.
 * - New copies are frozen (dicts with throwing mutators, as the parser freezes them), and so is
 *   every value new to a copy, deeply (values the tool built and stored included); what a copy
 *   keeps of a frozen container is left as it was. A draft of a container that was not frozen
 *   freezes its copy deeply, and a DB that was not frozen is frozen deeply even when unchanged.
 * - Changes made before an exception are kept (the caller catches it inside the recipe).
 * - A table (a dict of the root) of `OVERLAY_MIN` records or more is not copied: its new "copy" is an `OverlayDict`
 *   over the frozen table (over that table's own base when it is an overlay), holding the records written. It reads
 *   as the copy would (keys, order, values, the same objects), and is frozen as a copy is.
 */

const GONE: unique symbol = Symbol('deleted');
type Slot = PyValue | typeof GONE;

/** A draft of one container: changed or not, and the draft it was read through (marked changed with it). */
interface Node {
  changed: boolean;
  readonly parent: Node | null;
  /** What the container ends as: its own object when unchanged, else its new copy (frozen afterwards, by `freeze`). */
  finish(): PyValue;
  /** Freezes the new copy `finish` made, if any (see `draftRun`). */
  freeze(): void;
}

function markChanged(n: Node | null): void {
  for (; n !== null && !n.changed; n = n.parent) n.changed = true;
}

/** The drafts of one `writeDb`. */
class Scope {
  readonly lists = new WeakMap<object, ListDraft>();
  /** Every draft, in the order made. */
  readonly made: Node[] = [];
  /** Values the tool built and stored, already walked (their drafts replaced). */
  private readonly adopted = new WeakSet<object>();

  draft(v: PyDict | PyValue[], parent: Node | null): PyDict | PyValue[] {
    if (v instanceof Map) return new DictDraft(v, parent, this);
    const list = new ListDraft(v, parent, this);
    this.lists.set(list.proxy, list);
    this.made.push(list);
    return list.proxy;
  }

  nodeOf(v: object): Node | undefined {
    if (v instanceof DictDraft) return v.scope === this ? v : undefined;
    return this.lists.get(v);
  }

  /** What `v`, found in a new copy, ends as: a draft's final value; a value the tool built with its drafts replaced in place. */
  final(v: PyValue): PyValue {
    if (typeof v !== 'object' || v === null) return v;
    const node = this.nodeOf(v);
    if (node) return node.finish();
    if (Object.isFrozen(v) || this.adopted.has(v)) return v;
    this.adopted.add(v);
    if (v instanceof Map) {
      v.forEach((x, k) => {
        if (typeof x === 'object' && x !== null) {
          const y = this.final(x);
          if (y !== x) v.set(k, y);
        }
      });
    } else for (let i = 0; i < v.length; i++) v[i] = this.final(v[i]!);
    return v;
  }
}

/** Freezes what is not frozen yet, and below it, the way immer's `freeze(value, true)` does. */
function freezeDeep(v: PyValue | undefined): void {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return;
  if (v instanceof Map) {
    frozen(v);
    v.forEach((x) => freezeDeep(x));
  } else {
    Object.freeze(v);
    for (let i = 0; i < v.length; i++) freezeDeep(v[i]);
  }
}

/**
 * A draft of a dict (a `Map` to every `instanceof` test). Writes are kept beside the dict in `#over`,
 * in Python's key order: an existing key keeps its place, a new key comes last, and a key deleted
 * and set again (`#moved`) comes last too. Records read are drafted once per key (`#children`).
 */
export class DictDraft extends DictView implements Node {
  changed = false;
  readonly #orig: PyDict;
  #over: Map<string, Slot> | null = null;
  #moved: Set<string> | null = null;
  #children: Map<string, PyDict | PyValue[]> | null = null;
  #size: number;
  #final: PyDict | null = null;

  constructor(
    orig: PyDict,
    readonly parent: Node | null,
    readonly scope: Scope,
  ) {
    super();
    this.#orig = orig;
    this.#size = orig.size;
    scope.made.push(this);
  }

  /** The value at `k` as the draft holds it (a draft once read), undefined when absent. */
  #latest(k: string): PyValue | undefined {
    const o = this.#over?.get(k);
    if (o !== undefined) return o === GONE ? undefined : o;
    return this.#children?.get(k) ?? this.#orig.get(k);
  }

  override get size(): number {
    return this.#size;
  }
  override has(k: string): boolean {
    return this.#latest(k) !== undefined;
  }
  override get(k: string): PyValue | undefined {
    const o = this.#over?.get(k);
    if (o !== undefined) return o === GONE ? undefined : o;
    const c = this.#children?.get(k);
    if (c !== undefined) return c;
    const v = this.#orig.get(k);
    if (typeof v !== 'object' || v === null) return v;
    const d = this.scope.draft(v, this);
    (this.#children ??= new Map()).set(k, d);
    return d;
  }
  override set(k: string, v: PyValue): this {
    const cur = this.#latest(k);
    if (cur === v) return this;
    markChanged(this);
    const over = (this.#over ??= new Map());
    if (cur === undefined) this.#size++;
    if (over.get(k) === GONE) {
      // Python parity: dict.__setitem__ after del puts the key last.
      over.delete(k);
      (this.#moved ??= new Set()).add(k);
    }
    over.set(k, v);
    return this;
  }
  override delete(k: string): boolean {
    if (this.#latest(k) === undefined) return false;
    markChanged(this);
    const over = (this.#over ??= new Map());
    if (this.#orig.has(k)) over.set(k, GONE);
    else over.delete(k);
    this.#size--;
    return true;
  }
  override *keys(): MapIterator<string> {
    const over = this.#over;
    if (over === null) {
      yield* this.#orig.keys();
      return;
    }
    const moved = this.#moved;
    for (const k of this.#orig.keys()) {
      const o = over.get(k);
      if (o !== GONE && !moved?.has(k)) yield k;
    }
    for (const [k, o] of over) if (o !== GONE && (moved?.has(k) === true || !this.#orig.has(k))) yield k;
  }

  finish(): PyDict {
    if (!this.changed) return this.#orig;
    if (this.#final !== null) return this.#final;
    // A table (a dict of the DB's root) becomes an overlay over the table it drafts: only the records written are kept.
    const table = this.parent !== null && this.parent.parent === null;
    const m: PyDict = table ? OverlayDict.over(this.#orig) : new Map(this.#orig);
    this.#final = m;
    const over = this.#over;
    const moved = this.#moved;
    if (over !== null)
      for (const [k, o] of over) {
        if (o === GONE) m.delete(k);
        else {
          if (moved?.has(k)) m.delete(k);
          m.set(k, this.scope.final(o));
        }
      }
    this.#children?.forEach((c, k) => {
      if (over?.has(k) !== true) m.set(k, this.scope.final(c));
    });
    return m;
  }

  freeze(): void {
    const m = this.#final;
    if (m === null || Object.isFrozen(m)) return;
    if (!Object.isFrozen(this.#orig)) return freezeDeep(m);
    this.#over?.forEach((o, k) => {
      if (o !== GONE) freezeDeep(m.get(k));
    });
    frozen(m);
  }

  /** The keys whose value the call replaced, deleted or added, or changed inside (a superset of those that differ). */
  written(): Iterable<string> {
    const keys = new Set<string>(this.#over?.keys());
    this.#children?.forEach((c, k) => {
      if ((this.scope.nodeOf(c as object) as Node).changed) keys.add(k);
    });
    return keys;
  }

  /** The draft of the value at `k` when it was read and is still there (not replaced or deleted). */
  childAt(k: string): DictDraft | null {
    if (this.#over?.has(k) === true) return null;
    const c = this.#children?.get(k);
    return c instanceof DictDraft ? c : null;
  }
}

const INDEX = /^(?:0|[1-9]\d*)$/;

/**
 * A draft of a list: a proxy over a shallow copy of it, holding the drafts of the elements read
 * (as immer's array drafts hold them in their copy).
 */
class ListDraft implements Node {
  changed = false;
  readonly copy: PyValue[];
  readonly proxy: PyValue[];
  #final = false;
  /** The slots written with a new value (immer's `assigned_`: frozen deeply with the copy). */
  readonly #assigned = new Set<number>();

  constructor(
    readonly orig: readonly PyValue[],
    readonly parent: Node | null,
    readonly scope: Scope,
  ) {
    this.copy = orig.slice();
    this.proxy = new Proxy(this.copy, this.handler());
  }

  private handler(): ProxyHandler<PyValue[]> {
    return {
      get: (t, p, receiver) => {
        if (typeof p === 'string' && INDEX.test(p)) {
          const i = Number(p);
          const v = t[i];
          if (typeof v === 'object' && v !== null && v === this.orig[i]) return (t[i] = this.scope.draft(v, this));
          return v;
        }
        return Reflect.get(t, p, receiver) as unknown;
      },
      set: (t, p, v) => this.write(t, p, v as PyValue | undefined),
      deleteProperty: (t, p) => this.write(t, p, undefined),
    };
  }

  /** A list slot (or `length`) set; a delete sets it to undefined (a method then shortens the list). */
  private write(t: PyValue[], p: string | symbol, v: PyValue | undefined): boolean {
    const slots = t as unknown as Record<string | symbol, unknown>;
    if (!this.changed) {
      if (Object.is(v, slots[p]) && (v !== undefined || Object.hasOwn(this.orig, p))) return true;
      markChanged(this);
    }
    const cur = slots[p];
    if ((cur === v && (v !== undefined || Object.hasOwn(t, p))) || (Number.isNaN(v) && Number.isNaN(cur))) return true;
    slots[p] = v;
    if (typeof p === 'string' && INDEX.test(p)) this.#assigned.add(Number(p));
    return true;
  }

  finish(): PyValue[] {
    if (!this.changed) return this.orig as PyValue[];
    if (this.#final) return this.copy;
    this.#final = true;
    const t = this.copy;
    for (let i = 0; i < t.length; i++) t[i] = this.scope.final(t[i]!);
    return t;
  }

  freeze(): void {
    const t = this.copy;
    if (!this.#final || Object.isFrozen(t)) return;
    if (!Object.isFrozen(this.orig)) return freezeDeep(t);
    for (const i of this.#assigned) freezeDeep(t[i]);
    Object.freeze(t);
  }
}

/** One recipe run on drafts of `state`: the next DB (deeply frozen; `state` itself when nothing changed) and the root draft. */
export function draftRun(state: PyDict, recipe: (draft: PyDict) => void): { readonly next: PyDict; readonly root: DictDraft } {
  const scope = new Scope();
  const root = new DictDraft(state, null, scope);
  recipe(root);
  const next = root.finish();
  // As immer's auto-freeze: each new copy, the last made draft's first, frozen with the values
  // written into it deeply (so a record written into a table is frozen deeply, what it kept
  // included, before its own copy is frozen alone); then the result (a no-op unless the DB was not
  // frozen). Drafts changed and then dropped from the DB count too (what they hold may be in it).
  const made = scope.made;
  for (const d of made) if (d.changed) d.finish();
  for (let i = made.length - 1; i >= 0; i--) made[i]!.freeze();
  freezeDeep(next);
  return { next, root };
}
