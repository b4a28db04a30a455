/**
 * `CopyView` (src/core/py/pydantic/lazy-dict.ts): τ²'s copy of a big table (`copyDict`, `ownTable`) that copies nothing
 * until iterated. Seeded random sequences of what tools do to a table (set a record, add one, delete, delete and set
 * again, set the same value, get, has, size, identity, and now and then an iteration in each form, after which writes
 * go on) against the copy `copyDict` made before (`LazyDict.copy`, `DictCopy.from`), over a lazy and an eager origin:
 * the same answers, the same objects, the same keys written (in order), the same records decoded, the same final
 * dict; the origin never written; an iteration written to meanwhile sees what a Map's sees; a copy not made yet
 * cannot be structured-cloned.
 */
import { describe, expect, it } from 'vitest';
import type { TValue } from '../../../src/core/py/pydantic';
import { copyDict, CopyView, DictCopy, LazyDict, recordIdentity, RecordSource, VIEW_MIN } from '../../../src/core/py/pydantic/lazy-dict';
import { mulberry32 as rng } from '../../support/prng';

const N = VIEW_MIN + 36;

const KEYS = Array.from({ length: N }, (_, i) => `k${(i * 37) % N}`);

function lazyOrigin(): { dict: LazyDict; decoded: number[] } {
  const decoded: number[] = [];
  const source = new RecordSource(N, (slot) => {
    decoded.push(slot);
    return new Map<string, TValue>([['id', `r${slot}`]]);
  });
  return { dict: LazyDict.of(KEYS, source), decoded };
}

const eagerOrigin = (): Map<string, TValue> => new Map(KEYS.map((k, i) => [k, new Map<string, TValue>([['id', `r${i}`]])]));

/** The copy made before CopyView. */
const oldCopy = (d: Map<string, TValue>): DictCopy => (d instanceof LazyDict ? d.copy() : DictCopy.from(d));

const show = (v: unknown): string => (v instanceof Map ? `{${[...(v as Map<string, unknown>)].map(([k, x]) => `${k}:${show(x)}`).join(',')}}` : String(v));

/** One random step on `d`, returning what a tool would see of it (a string), values compared by identity through `objects`. */
function step(d: DictCopy, r: number, k: number, v: TValue, objects: Map<unknown, number>): string {
  const id = (x: unknown): string => {
    if (typeof x !== 'object' || x === null) return String(x);
    if (!objects.has(x)) objects.set(x, objects.size);
    return `#${objects.get(x)}`;
  };
  const key = k < N ? KEYS[k]! : `new${k}`;
  switch (Math.floor(r * 12)) {
    case 0:
    case 1:
      return `set ${id(d.set(key, v) === d)}`;
    case 2:
      return `del ${d.delete(key)}`;
    case 3: {
      const was = d.get(key);
      d.delete(key);
      d.set(key, was ?? v);
      return `del-set ${id(was)}`;
    }
    case 4: {
      const was = d.get(key);
      if (was !== undefined) d.set(key, was);
      return `same ${id(was)}`;
    }
    case 5:
    case 6:
      return `get ${id(d.get(key))}`;
    case 7:
      return `has ${d.has(key)} size ${d.size}`;
    case 8:
      return `identity ${id(recordIdentity(d, key))}`;
    case 9: {
      // Now and then an iteration, in each form (a CopyView is made a copy by it).
      const form = k % 5;
      if (form === 0) return `keys ${[...d.keys()].join(',')}`;
      if (form === 1) return `values ${[...d.values()].map(id).join(',')}`;
      if (form === 2) return `entries ${[...d.entries()].map(([a, b]) => `${a}=${id(b)}`).join(',')}`;
      if (form === 3) {
        const seen: string[] = [];
        d.forEach((x, a) => seen.push(`${a}=${id(x)}`));
        return `forEach ${seen.join(',')}`;
      }
      return `of ${[...d].map(([a, b]) => `${a}=${id(b)}`).join(',')}`;
    }
    default:
      return `size ${d.size}`;
  }
}

describe('CopyView against the copy copyDict made before (seeded)', () => {
  for (const kind of ['lazy', 'eager'] as const)
    it(`${kind} origin: random sequences give the same answers, objects, keys written, records decoded and final dict`, () => {
      const rand = rng(kind === 'lazy' ? 11 : 12);
      let views = 0;
      let made = 0;
      for (let run = 0; run < 150; run++) {
        // Each side its own origin (to count what each decodes), and a shared one (to compare identities).
        const a = kind === 'lazy' ? lazyOrigin() : { dict: eagerOrigin(), decoded: [] };
        const b = kind === 'lazy' ? lazyOrigin() : { dict: eagerOrigin(), decoded: [] };
        const before = [...b.dict.keys()];
        const view = copyDict(a.dict);
        const ref = oldCopy(b.dict);
        expect(view).toBeInstanceOf(CopyView);
        expect(view.origin).toBe(a.dict);
        views++;
        const objA = new Map<unknown, number>();
        const objB = new Map<unknown, number>();
        const steps = 1 + Math.floor(rand() * 60);
        for (let s = 0; s < steps; s++) {
          const r = rand();
          const k = Math.floor(rand() * (N + 8));
          const v: TValue = new Map<string, TValue>([['id', `w${s}`]]);
          // The same value object on both sides would be shared; each side gets its own, numbered alike by first sight.
          const v2: TValue = new Map<string, TValue>([['id', `w${s}`]]);
          const x = step(view, r, k, v, objA);
          const y = step(ref, r, k, v2, objB);
          expect(x, `run ${run} step ${s}`).toBe(y);
          expect([...view.written]).toEqual([...ref.written]);
          expect(a.decoded).toEqual(b.decoded);
        }
        expect(view.size).toBe(ref.size);
        // Whether an iteration made it a copy on the way (a copy not made yet throws when cloned).
        let cloned = true;
        try {
          structuredClone(view);
        } catch {
          cloned = false;
        }
        if (cloned) made++;
        const final = [...view].map(([k, x]) => `${k}=${show(x)}`);
        expect(final).toEqual([...ref].map(([k, x]) => `${k}=${show(x)}`));
        // The origin is as it was.
        expect([...a.dict.keys()]).toEqual(before);
      }
      expect(views).toBe(150);
      // Both kinds of runs: made a copy on the way, and written and read as a view to the end.
      expect(made).toBeGreaterThan(20);
      expect(made).toBeLessThan(130);
    });

  it('untouched records are the origin’s own objects (or tokens) through the view, before and after it is made a copy', () => {
    const { dict, decoded } = lazyOrigin();
    const view = copyDict(dict);
    view.set(KEYS[1]!, 'mine');
    view.delete(KEYS[2]!);
    expect(recordIdentity(view, KEYS[0]!)).toBe(recordIdentity(dict, KEYS[0]!));
    expect(decoded).toEqual([]);
    const r0 = view.get(KEYS[0]!);
    expect(dict.get(KEYS[0]!)).toBe(r0);
    expect(decoded).toEqual([0]);
    expect([...view.keys()]).toHaveLength(N - 1);
    // Made a copy by keys(): nothing more decoded, the same identities.
    expect(decoded).toEqual([0]);
    expect(recordIdentity(view, KEYS[3]!)).toBe(recordIdentity(dict, KEYS[3]!));
    expect(view.get(KEYS[0]!)).toBe(r0);
    expect([...view.written]).toEqual([KEYS[1], KEYS[2]]);
  });

  it('an iteration written to meanwhile sees what a Map iteration sees', () => {
    for (const how of ['values', 'entries', 'forEach', 'of'] as const) {
      const walk = (d: Map<string, TValue>): string[] => {
        const seen: string[] = [];
        let n = 0;
        const visit = (v: TValue): void => {
          seen.push(show(v));
          if (n++ === 1) {
            d.set('late', 'added');
            d.delete(KEYS[4]!);
            d.set(KEYS[3]!, 'replaced');
            d.delete(KEYS[0]!);
            d.set(KEYS[0]!, 'again');
          }
        };
        if (how === 'values') for (const v of d.values()) visit(v);
        if (how === 'entries') for (const [, v] of d.entries()) visit(v);
        if (how === 'of') for (const [, v] of d) visit(v);
        if (how === 'forEach') d.forEach((v) => visit(v));
        return seen;
      };
      const view = copyDict(lazyOrigin().dict);
      view.set(KEYS[5]!, 'before');
      const plain = new Map(eagerOrigin());
      plain.set(KEYS[5]!, 'before');
      expect(walk(view), how).toEqual(walk(plain));
    }
  });

  it('a copy not made yet cannot be structured-cloned (it would arrive empty); once made it clones whole', () => {
    const view = copyDict(eagerOrigin());
    view.set('x', 1n);
    expect(() => structuredClone(view)).toThrow();
    expect(view.size).toBe(N + 1);
    view.forEach(() => undefined);
    expect(structuredClone(view).size).toBe(N + 1);
  });
});
