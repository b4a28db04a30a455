import { describe, expect, it } from 'vitest';
import type { Db } from '../../../src/core/model/data/db';
import type { PyValue } from '../../../src/core/py/value';
import { freeze } from '../../support/immer';
import { writesOfCall } from '../../../src/core/env/execute';
import { applyTool } from '../../../src/core/env/replay';
import type { Domain } from '../../../src/core/model/data/db';
import { TOOLS } from '../../../src/core/model/domains/registry';
import type { WritePath } from '../../../src/core/env/write-log';
import { blameWrite } from '../../../src/core/view/blame';
import { stepLabel } from '../../../src/features/episode/ui';
import { evaluatedSharedRun } from '../../support/fixtures';
import { describeShared } from '../../support/shared';
import { writeTrackerCases } from './write-tracker.cases';

const dict = (o: Record<string, PyValue>): Map<string, PyValue> => new Map(Object.entries(o));

describe('blameWrite', () => {
  // Step i wrote where writes[i] says; paths are [table, key, ...field path].
  const writes: WritePath[][] = [
    [['reservations', 'R1', 'total_baggages']], // 0
    [['reservations', 'R1', 'flights']], // 1: a new flights list (all its fields written)
    [], // 2: a read
    [['reservations', 'R1', 'flights', 2]], // 3: one flight appended
    [['reservations', 'R2']], // 4: another record created
  ];
  const CASES: readonly { readonly path: readonly (string | number)[]; readonly step: number | null; readonly note: string }[] = [
    { path: ['flights', 0, 'price'], step: 1, note: 'inside a list that step 1 wrote whole' },
    { path: ['flights', 2, 'price'], step: 3, note: 'inside the element step 3 appended' },
    { path: ['flights'], step: 3, note: 'the list: written whole by 1, in part by 3' },
    { path: ['total_baggages'], step: 0, note: 'written once' },
    { path: ['status'], step: null, note: 'never written' },
    { path: [], step: 3, note: 'the whole record: the last write anywhere in it' },
  ];
  it('names the last step whose call wrote the field, the value holding it or a part of it; null when none did', () => {
    expect(CASES.map((c) => ({ note: c.note, step: blameWrite(writes, 'reservations', 'R1', c.path) }))).toEqual(
      CASES.map((c) => ({ note: c.note, step: c.step })),
    );
    expect(blameWrite(writes, 'reservations', 'R2', ['status'])).toBe(4);
    expect(blameWrite(writes, 'reservations', 'R3', [])).toBeNull();
    expect(blameWrite(writes, 'users', 'R1', [])).toBeNull();
  });
});

/** The call run as the replay runs it, and where it wrote. */
const call = (domain: Domain, db: Db, name: string, kwargs: Map<string, PyValue>) => ({
  ...applyTool(domain, db, { name, kwargs }),
  writes: writesOfCall(db, TOOLS[domain].get(name)!, kwargs).writes,
});

describe('writes logged by a tool call', () => {
  const address = dict({ address1: '1 Main St', address2: 'Suite 1', city: 'New York', country: 'USA', state: 'NY', zip: '10034' });
  const retail = freeze(dict({ orders: dict({ '#W1': dict({ status: 'pending', address, items: [] }) }) }), true) as Db;
  const sameAddress = dict({ order_id: '#W1', address1: '1 Main St', address2: 'Suite 1', city: 'New York', state: 'NY', country: 'USA', zip: '10034' });

  it('a freshly built dict with the values already there is a write of every field in it', () => {
    const out = call('retail', retail, 'modify_pending_order_address', sameAddress);
    expect(out.writes).toEqual([['orders', '#W1', 'address']]);
    expect(blameWrite([out.writes], 'orders', '#W1', ['address', 'city'])).toBe(0);
    expect(blameWrite([out.writes], 'orders', '#W1', ['status'])).toBeNull();
  });

  it('an assignment of the value a field already had is a write (immer alone drops it)', () => {
    const pm = dict({ source: 'credit_card', id: 'credit_card_1' });
    const airline = freeze(
      dict({
        users: dict({ u1: dict({ payment_methods: dict({ credit_card_1: pm }) }) }),
        reservations: dict({ R1: dict({ user_id: 'u1', total_baggages: 2n, nonfree_baggages: 0n, payment_history: [] }) }),
      }),
      true,
    ) as Db;
    const kwargs = dict({ reservation_id: 'R1', total_baggages: 2n, nonfree_baggages: 1n, payment_id: 'credit_card_1' });
    const out = call('airline', airline, 'update_reservation_baggages', kwargs);
    expect(out.exception).toBeNull();
    expect(out.writes).toContainEqual(['reservations', 'R1', 'total_baggages']);
    expect(out.writes).toContainEqual(['reservations', 'R1', 'payment_history', 0]);
    // The value is the one it had, so the record holds the very same number; the write is still named.
    const r = (out.state.get('reservations') as Map<string, PyValue>).get('R1') as Map<string, PyValue>;
    expect(r.get('total_baggages')).toBe(2n);
    expect(r.get('nonfree_baggages')).toBe(1n);
    expect(blameWrite([out.writes], 'reservations', 'R1', ['total_baggages'])).toBe(0);
    expect(blameWrite([out.writes], 'reservations', 'R1', ['user_id'])).toBeNull();
  });

  it('a read-only tool writes nothing; the base DB is never written', () => {
    const before = JSON.stringify([...((retail.get('orders') as Map<string, PyValue>).get('#W1') as Map<string, PyValue>).keys()]);
    const out = call('retail', retail, 'get_order_details', dict({ order_id: '#W1' }));
    expect(out.writes).toEqual([]);
    expect(out.state).toBe(retail);
    expect(JSON.stringify([...((retail.get('orders') as Map<string, PyValue>).get('#W1') as Map<string, PyValue>).keys()])).toBe(before);
  });
});

describeShared('DB diff blame on grok-4-tool-calling-retail episode 104', () => {
  it('names step 20, which wrote the unchanged New York address, for all four differing fields', () => {
    const view = evaluatedSharedRun('grok-4-tool-calling-retail.json').session.view(104);
    if ('error' in view) throw new Error(view.error);
    const record = view.diff.find((d) => d.table === 'orders' && d.key === '#W4860251')!;
    expect(record.fields.map((f) => f.path)).toEqual(['address.address2', 'address.city', 'address.state', 'address.zip']);
    // Steps count from 1 in the UI (stepLabel): index 19 is "step 20".
    const step20 = view.steps[19]!;
    expect(step20.action).toBe('modify_pending_order_address');
    expect(JSON.parse(step20.kwargs)).toMatchObject({ city: 'New York', zip: '10034' });
    expect(record.fields.map((f) => [f.path, f.agentStep === null ? null : stepLabel(f.agentStep)])).toEqual(record.fields.map((f) => [f.path, 'step 20']));
    // The reference value comes from the reference's own address change (action 3).
    expect(view.reference[2]!.action).toBe('modify_pending_order_address');
    expect(record.fields.every((f) => f.referenceStep === 2)).toBe(true);
    expect(view.alignment.dbDiffs).toContainEqual({ record: 'orders/#W4860251', step: 20, gold: 3 });
  });
});

describeShared('DB diff blame on gpt-4o-airline episode 3', () => {
  it('blames each reference field on the action that wrote it: flights rebuilt by the flights update, bags by the baggages update', () => {
    const view = evaluatedSharedRun('gpt-4o-airline.json').session.view(3);
    if ('error' in view) throw new Error(view.error);
    expect(view.reference.map((r) => r.action)).toEqual(['update_reservation_flights', 'update_reservation_baggages']);
    const fields = view.diff.find((d) => d.table === 'reservations')!.fields;
    const field = (path: string) => fields.find((f) => f.path === path)!;
    // 146 and 167 are the initial prices, but update_reservation_flights wrote a new flights list
    // with them (copied from the kept flights): it wrote those values.
    expect(field('flights[0].price')).toMatchObject({ reference: '146', referenceStep: 0 });
    expect(field('flights[1].price')).toMatchObject({ reference: '167', referenceStep: 0 });
    expect(field('flights[2].flight_number').referenceStep).toBe(0);
    expect(field('total_baggages').referenceStep).toBe(1);
    // The baggages update never wrote the flights.
    expect(fields.filter((f) => f.path.startsWith('flights')).every((f) => f.referenceStep === 0)).toBe(true);
  });
});

// Every run of ../shared/runs is in the soak (test/soak/blame.spec.ts); one of each domain here.
writeTrackerCases(['grok-4-tool-calling-airline.json', 'grok-4-tool-calling-retail.json']);
