import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/core/model/data/db';
import type { PyValue } from '../../src/core/py/value';
import { blameStep } from '../../src/core/view/blame';
import { evaluatedSharedRun } from '../support/fixtures';
import { describeShared } from '../support/shared';

const dict = (o: Record<string, PyValue>): Map<string, PyValue> => new Map(Object.entries(o));
const flight = (n: string, price: bigint): PyValue => dict({ flight_number: n, price });
const dbWith = (record: PyValue | undefined): Db => dict({ reservations: dict(record === undefined ? {} : { R1: record }) });

describe('blameStep', () => {
  // states[0] initial; states[i + 1] after step i.
  const r0 = dict({ status: 'active', total_baggages: 1n, flights: [flight('HAT1', 146n), flight('HAT2', 167n)] });
  const r1 = dict({ status: 'active', total_baggages: 2n, flights: r0.get('flights')! }); // step 0: baggages only
  const r2 = dict({ status: 'active', total_baggages: 2n, flights: [flight('HAT1', 146n), flight('HAT9', 300n)] }); // step 1: rewrites flights, keeps flights[0]
  const r3 = dict({ status: 'active', total_baggages: 1n, flights: r2.get('flights')!, note: 'x' }); // step 2: baggages back, adds note
  const r4 = dict({ status: 'active', total_baggages: 1n, flights: [flight('HAT1', 146n), flight('HAT9', 300n)], note: 'x' }); // step 3: equal copy
  const states: Db[] = [dbWith(r0), dbWith(r1), dbWith(r2), dbWith(r3), dbWith(r4)];

  const CASES: readonly { readonly path: readonly (string | number)[]; readonly step: number | null; readonly note: string }[] = [
    { path: ['flights', 0, 'price'], step: null, note: 'record touched by every step, field never changed' },
    { path: ['status'], step: null, note: 'never changed' },
    { path: ['flights', 1, 'flight_number'], step: 1, note: 'changed by the flights rewrite' },
    { path: ['total_baggages'], step: 2, note: 'changed by step 0, changed back by step 2: the last changer' },
    { path: ['note'], step: 2, note: 'appeared in step 2' },
    { path: ['no_such_field'], step: null, note: 'absent throughout' },
    { path: [], step: 2, note: 'whole record: last value change (step 3 is an equal copy)' },
  ];

  it('names the last step that changed the field, else null', () => {
    expect(CASES.map((c) => ({ note: c.note, step: blameStep(states, 'reservations', 'R1', c.path) }))).toEqual(CASES.map((c) => ({ note: c.note, step: c.step })));
  });

  it('blames the step that created or deleted a record, and no step for a record never present', () => {
    const created: Db[] = [dbWith(undefined), dbWith(undefined), dbWith(r0)];
    expect(blameStep(created, 'reservations', 'R1', [])).toBe(1);
    expect(blameStep(created, 'reservations', 'R1', ['status'])).toBe(1);
    expect(blameStep([dbWith(r0), dbWith(undefined)], 'reservations', 'R1', ['status'])).toBe(0);
    expect(blameStep(created, 'reservations', 'R2', [])).toBeNull();
  });
});

describeShared('DB diff blame on gpt-4o-airline episode 3', () => {
  it('does not name update_reservation_baggages as the writer of flight prices it never touched', () => {
    const view = evaluatedSharedRun('gpt-4o-airline.json').session.view(3);
    if ('error' in view) throw new Error(view.error);
    expect(view.reference.map((r) => r.action)).toEqual(['update_reservation_flights', 'update_reservation_baggages']);
    const fields = view.diff.find((d) => d.table === 'reservations')!.fields;
    const field = (path: string) => fields.find((f) => f.path === path)!;
    // 146 and 167 are the initial prices: neither reference action changed them.
    expect(field('flights[0].price')).toMatchObject({ reference: '146', referenceStep: null });
    expect(field('flights[1].price')).toMatchObject({ reference: '167', referenceStep: null });
    // The flights update did change the third flight, and the baggages update the bag count.
    expect(field('flights[2].flight_number').referenceStep).toBe(0);
    expect(field('total_baggages').referenceStep).toBe(1);
    // No field is blamed on a reference action that left its value alone.
    expect(fields.filter((f) => f.referenceStep === 1).map((f) => f.path)).toEqual(['total_baggages']);
  });
});
