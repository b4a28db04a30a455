/** τ²'s TelecomTools (domains/telecom/tools.py), with Python's behaviour for any argument. */
import { PyException } from '../../../../py/errors';
import { pyLower } from '../../../../py/lower';
import { formatFloat2, gt, le, lt, mul, truthy } from '../../../../py/ops';
import { PyDate, PydModel, validate, type TValue } from '../../../../py/pydantic';
import type { PyValue } from '../../../../py/value';
import { attr, has, items, minus, plus, same, setAttr, size, text, valueError } from '../py-attrs';
import type { MethodDef, Toolkit, ToolDef, ToolType } from '../toolkit';
import { addDays, dateKey, today, withDay } from './dates';
import { Bill, BillStatus, LineItem, LineStatus } from './models';

const pv = (v: TValue): PyValue => v as PyValue;
const list = (self: Toolkit, name: string): PydModel[] => self.db.get(name) as PydModel[];

function find(self: Toolkit, table: string, key: string, value: TValue, message: string): PydModel {
  for (const r of list(self, table)) if (same(attr(r, key), value)) return r;
  throw valueError(message);
}
export const lineById = (self: Toolkit, id: TValue) => find(self, 'lines', 'line_id', id, `Line with ID ${text(id)} not found`);
export const lineByPhone = (self: Toolkit, n: TValue) => find(self, 'lines', 'phone_number', n, `Line with phone number ${text(n)} not found`);
export const planById = (self: Toolkit, id: TValue) => find(self, 'plans', 'plan_id', id, `Plan with ID ${text(id)} not found`);
const deviceById = (self: Toolkit, id: TValue) => find(self, 'devices', 'device_id', id, `Device with ID ${text(id)} not found`);
const billById = (self: Toolkit, id: TValue) => find(self, 'bills', 'bill_id', id, `Bill with ID ${text(id)} not found`);
const customerById = (self: Toolkit, id: TValue) => find(self, 'customers', 'customer_id', id, `Customer with ID ${text(id)} not found`);

export function customerByPhone(self: Toolkit, phone: TValue): PydModel {
  for (const c of list(self, 'customers')) {
    if (same(attr(c, 'phone_number'), phone)) return c;
    for (const id of attr(c, 'line_ids') as TValue[]) if (same(attr(lineById(self, id), 'phone_number'), phone)) return c;
  }
  throw valueError(`Customer with phone number ${text(phone)} not found`);
}

function targetLine(self: Toolkit, customerId: TValue, lineId: TValue): PydModel {
  const c = customerById(self, customerId);
  if (!has(attr(c, 'line_ids'), lineId)) throw valueError(`Line ${text(lineId)} not found for customer ${text(customerId)}`);
  return lineById(self, lineId);
}

export function billsAwaitingPayment(self: Toolkit, customer: PydModel): PydModel[] {
  return (attr(customer, 'bill_ids') as TValue[]).map((id) => billById(self, id)).filter((b) => same(attr(b, 'status'), BillStatus.get('AWAITING_PAYMENT')));
}

export function setBillToPaid(self: Toolkit, id: TValue): void {
  setAttr(billById(self, id), 'status', BillStatus.get('PAID'));
}

// Python parity: format(x, '.2f') — exact ties round to even, as roundFloat2 does.
const fmt2 = (x: TValue): string => (typeof x === 'number' ? formatFloat2(x) : typeof x === 'bigint' ? `${x}.00` : text(x));

function applyOneTimeCharge(self: Toolkit, customerId: TValue, amount: TValue, description: string): void {
  const customer = customerById(self, customerId);
  let draft: PydModel | undefined;
  for (const id of attr(customer, 'bill_ids') as TValue[]) {
    const b = billById(self, id);
    if (same(attr(b, 'status'), BillStatus.get('DRAFT'))) {
      draft = b;
      break;
    }
  }
  if (!draft) {
    // Python parity: τ² names the new bill `B` + uuid4().hex[:8]: no hash of this DB can be reproduced.
    self.nondeterministic = true;
    const t = today();
    const next = withDay(addDays(withDay(t, 1), 32), 1);
    const end = addDays(next.month < 12 ? new PyDate(next.year, next.month + 1, 1) : new PyDate(next.year + 1, 1, 1), -1);
    const id = `B${self.counter('bill').toString(16).padStart(8, '0')}`;
    draft = validate(
      Bill,
      new Map<string, TValue>([
        ['bill_id', id],
        ['customer_id', customerId],
        ['period_start', next],
        ['period_end', end],
        ['issue_date', next],
        ['total_due', 0n],
        ['due_date', addDays(next, 14)],
        ['status', BillStatus.get('DRAFT')],
      ]),
    );
    list(self, 'bills').push(draft);
    (attr(customer, 'bill_ids') as TValue[]).push(id);
  }
  const lineItem = validate(
    LineItem,
    new Map<string, TValue>([
      ['description', description],
      ['amount', amount],
      ['date', today()],
      // Python parity: _apply_one_time_charge — `"Credit" if amount < 0 else "Charge"` (a NaN amount is a Charge).
      ['item_type', lt(pv(amount), pv(0n)) ? 'Credit' : 'Charge'],
    ]),
  );
  (attr(draft, 'line_items') as TValue[]).push(lineItem);
  setAttr(draft, 'total_due', plus(attr(draft, 'total_due'), amount, '+='));
}

const params = (...names: (string | [string, TValue])[]) => names.map((n) => (typeof n === 'string' ? { name: n } : { name: n[0], default: n[1] }));
const tool = (name: string, toolType: ToolType, names: (string | [string, TValue])[], run: MethodDef['run']): ToolDef => ({
  name,
  toolType,
  mutates: toolType === 'write',
  params: params(...names),
  run,
});
const fn = (name: string, names: (string | [string, TValue])[], run: MethodDef['run']): MethodDef => ({ name, params: params(...names), run });
const g = (a: ReadonlyMap<string, TValue>, k: string): TValue => a.get(k)!;
const ACTIVE = () => LineStatus.get('ACTIVE');

function startsWith(v: TValue, p: string): boolean {
  if (typeof v !== 'string')
    throw new PyException(
      'AttributeError',
      `'${v === null ? 'NoneType' : typeof v === 'bigint' ? 'int' : typeof v === 'number' ? 'float' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'list' : 'dict'}' object has no attribute 'startswith'`,
    );
  return v.startsWith(p);
}

export const TELECOM_TOOLS: ToolDef[] = [
  tool('get_customer_by_phone', 'read', ['phone_number'], (self, a) => customerByPhone(self, g(a, 'phone_number'))),
  tool('get_customer_by_id', 'read', ['customer_id'], (self, a) => customerById(self, g(a, 'customer_id'))),
  tool('get_customer_by_name', 'read', ['full_name', 'dob'], (self, a) =>
    list(self, 'customers').filter(
      (c) => pyLower(attr(c, 'full_name') as string) === lowerOf(g(a, 'full_name')) && same(attr(c, 'date_of_birth'), g(a, 'dob')),
    ),
  ),
  tool('get_details_by_id', 'read', ['id'], (self, a) => {
    const id = g(a, 'id');
    if (startsWith(id, 'L')) return lineById(self, id);
    if (startsWith(id, 'D')) return deviceById(self, id);
    if (startsWith(id, 'B')) return billById(self, id);
    if (startsWith(id, 'C')) return customerById(self, id);
    if (startsWith(id, 'P')) return planById(self, id);
    throw valueError(`Unknown ID format or type: ${text(id)}`);
  }),
  tool('suspend_line', 'write', ['customer_id', 'line_id', 'reason'], (self, a) => {
    const line = targetLine(self, g(a, 'customer_id'), g(a, 'line_id'));
    if (!same(attr(line, 'status'), ACTIVE())) throw valueError('Line must be active to suspend');
    setAttr(line, 'status', LineStatus.get('SUSPENDED'));
    setAttr(line, 'suspension_start_date', today());
    return new Map<string, TValue>([
      ['message', 'Line suspended successfully. $5/month holding fee will apply.'],
      ['line', line],
    ]);
  }),
  tool('resume_line', 'write', ['customer_id', 'line_id'], (self, a) => {
    const line = targetLine(self, g(a, 'customer_id'), g(a, 'line_id'));
    if (!(same(attr(line, 'status'), LineStatus.get('SUSPENDED')) || same(attr(line, 'status'), LineStatus.get('PENDING_ACTIVATION'))))
      throw valueError('Line must be suspended to resume');
    setAttr(line, 'status', ACTIVE());
    setAttr(line, 'suspension_start_date', null);
    return new Map<string, TValue>([
      ['message', 'Line resumed successfully'],
      ['line', line],
    ]);
  }),
  tool('get_bills_for_customer', 'read', ['customer_id', ['limit', 12n]], (self, a) => {
    const c = customerById(self, g(a, 'customer_id'));
    const bills = (attr(c, 'bill_ids') as TValue[]).map((id) => billById(self, id));
    // Python parity: sorted(key=issue_date, reverse=True) is stable: equal dates keep their order.
    const sorted = bills
      .map((b, i) => [b, i] as const)
      .sort((x, y) => dateKey(attr(y[0], 'issue_date') as PyDate) - dateKey(attr(x[0], 'issue_date') as PyDate) || x[1] - y[1])
      .map((x) => x[0]);
    // Python parity: a bool is an int as a slice index (`[:True]` is `[:1]`).
    const given = g(a, 'limit');
    const limit = typeof given === 'boolean' ? (given ? 1n : 0n) : given;
    if (typeof limit !== 'bigint' && limit !== null) throw new PyException('TypeError', 'slice indices must be integers or None or have an __index__ method');
    return limit === null ? sorted : sorted.slice(0, limit < 0n ? Math.max(0, sorted.length + Number(limit)) : Number(limit));
  }),
  tool('send_payment_request', 'write', ['customer_id', 'bill_id'], (self, a) => {
    const c = customerById(self, g(a, 'customer_id'));
    if (billsAwaitingPayment(self, c).length !== 0) throw valueError('A bill is already awaiting payment for this customer');
    if (!has(attr(c, 'bill_ids'), g(a, 'bill_id'))) throw valueError(`Bill ${text(g(a, 'bill_id'))} not found for customer ${text(g(a, 'customer_id'))}`);
    const bill = billById(self, g(a, 'bill_id'));
    setAttr(bill, 'status', BillStatus.get('AWAITING_PAYMENT'));
    return `Payment request sent to the customer for bill ${text(attr(bill, 'bill_id'))}`;
  }),
  tool('get_data_usage', 'read', ['customer_id', 'line_id'], (self, a) => {
    const line = targetLine(self, g(a, 'customer_id'), g(a, 'line_id'));
    const plan = planById(self, attr(line, 'plan_id'));
    const t = today();
    const cycleEnd = addDays(t.month < 12 ? new PyDate(t.year, t.month + 1, 1) : new PyDate(t.year, 1, 1), -1);
    return new Map<string, TValue>([
      ['line_id', g(a, 'line_id')],
      ['data_used_gb', attr(line, 'data_used_gb')],
      ['data_limit_gb', attr(plan, 'data_limit_gb')],
      ['data_refueling_gb', attr(line, 'data_refueling_gb')],
      ['cycle_end_date', cycleEnd],
    ]);
  }),
  tool('enable_roaming', 'write', ['customer_id', 'line_id'], (self, a) => {
    const line = targetLine(self, g(a, 'customer_id'), g(a, 'line_id'));
    if (attr(line, 'roaming_enabled') === true) return 'Roaming was already enabled';
    setAttr(line, 'roaming_enabled', true);
    return 'Roaming enabled successfully';
  }),
  tool('disable_roaming', 'write', ['customer_id', 'line_id'], (self, a) => {
    const line = targetLine(self, g(a, 'customer_id'), g(a, 'line_id'));
    if (attr(line, 'roaming_enabled') !== true) return 'Roaming was already disabled';
    setAttr(line, 'roaming_enabled', false);
    return 'Roaming disabled successfully';
  }),
  tool('transfer_to_human_agents', 'generic', ['summary'], () => 'Transfer successful'),
  tool('refuel_data', 'write', ['customer_id', 'line_id', 'gb_amount'], (self, a) => {
    const line = targetLine(self, g(a, 'customer_id'), g(a, 'line_id'));
    const gb = g(a, 'gb_amount');
    if (le(pv(gb), pv(0n))) throw valueError('Refuel amount must be positive');
    const plan = planById(self, attr(line, 'plan_id'));
    const price = attr(plan, 'data_refueling_price_per_gb');
    const charge = mul(pv(gb), pv(price)) as TValue;
    setAttr(line, 'data_refueling_gb', plus(attr(line, 'data_refueling_gb'), gb, '+='));
    applyOneTimeCharge(self, g(a, 'customer_id'), charge, `Data refueling: ${text(gb)} GB at $${text(price)}/GB`);
    return new Map<string, TValue>([
      ['message', `Successfully added ${text(gb)} GB of data for line ${text(g(a, 'line_id'))} for $${fmt2(charge)}`],
      ['new_data_refueling_gb', attr(line, 'data_refueling_gb')],
      ['charge', charge],
    ]);
  }),
];

const lowerOf = (v: TValue): string => {
  if (typeof v !== 'string')
    throw new PyException(
      'AttributeError',
      `'${Array.isArray(v) ? 'list' : v === null ? 'NoneType' : typeof v === 'bigint' ? 'int' : typeof v === 'number' ? 'float' : typeof v === 'boolean' ? 'bool' : 'dict'}' object has no attribute 'lower'`,
    );
  return pyLower(v);
};

export const TELECOM_FUNCTIONS: MethodDef[] = [
  fn('set_data_usage', ['customer_id', 'line_id', 'data_used_gb'], (self, a) => {
    const line = targetLine(self, g(a, 'customer_id'), g(a, 'line_id'));
    setAttr(line, 'data_used_gb', g(a, 'data_used_gb'));
    return `Data usage set to ${text(g(a, 'data_used_gb'))} GB for line ${text(g(a, 'line_id'))}`;
  }),
  fn('suspend_line_for_overdue_bill', ['customer_id', 'line_id', 'new_bill_id', 'contract_ended'], (self, a) => {
    const line = lineById(self, g(a, 'line_id'));
    if (!same(attr(line, 'status'), ACTIVE())) throw valueError('Line must be active to suspend for unpaid bill');
    const plan = planById(self, attr(line, 'plan_id'));
    const amount = attr(plan, 'price_per_month');
    if (le(pv(amount), pv(0n))) throw valueError('Amount must be positive for overdue bill');
    const customer = customerById(self, g(a, 'customer_id'));
    if ((attr(customer, 'bill_ids') as TValue[]).some((id) => same(attr(billById(self, id), 'status'), BillStatus.get('OVERDUE'))))
      throw valueError('Customer already has an overdue bill');
    const lastDay = addDays(withDay(today(), 1), -1);
    const firstDay = withDay(lastDay, 1);
    const bill = validate(
      Bill,
      new Map<string, TValue>([
        ['bill_id', g(a, 'new_bill_id')],
        ['customer_id', g(a, 'customer_id')],
        ['period_start', firstDay],
        ['period_end', lastDay],
        ['issue_date', firstDay],
        ['total_due', 0n],
        ['due_date', addDays(firstDay, 14)],
        ['status', BillStatus.get('OVERDUE')],
      ]),
    );
    const item = validate(
      LineItem,
      new Map<string, TValue>([
        ['description', `Charge for line ${text(attr(line, 'line_id'))}`],
        ['amount', amount],
        ['date', today()],
        // Python parity: suspend_line_for_overdue_bill — `"Charge" if amount > 0 else "Credit"` (NaN passed `amount <= 0`).
        ['item_type', gt(pv(amount), pv(0n)) ? 'Charge' : 'Credit'],
      ]),
    );
    (attr(bill, 'line_items') as TValue[]).push(item);
    setAttr(bill, 'total_due', plus(attr(bill, 'total_due'), amount, '+='));
    list(self, 'bills').push(bill);
    (attr(customer, 'bill_ids') as TValue[]).push(g(a, 'new_bill_id'));
    setAttr(line, 'status', LineStatus.get('SUSPENDED'));
    setAttr(line, 'suspension_start_date', today());
    // Python parity: `if contract_ended:` — any truthy value ("100", 1, [0]) ends the contract.
    if (truthy(pv(g(a, 'contract_ended')))) setAttr(line, 'contract_end_date', lastDay);
    return `Line ${text(g(a, 'line_id'))} suspended for unpaid bill ${text(g(a, 'new_bill_id'))}. Contract ended: ${text(g(a, 'contract_ended'))}`;
  }),
  fn('assert_data_refueling_amount', ['customer_id', 'line_id', 'expected_amount'], (self, a) => {
    const line = targetLine(self, g(a, 'customer_id'), g(a, 'line_id'));
    const d = minus(attr(line, 'data_refueling_gb'), g(a, 'expected_amount')) as number | bigint;
    return Math.abs(Number(d)) < 1e-6;
  }),
  fn('assert_line_status', ['customer_id', 'line_id', 'expected_status'], (self, a) =>
    same(attr(targetLine(self, g(a, 'customer_id'), g(a, 'line_id')), 'status'), g(a, 'expected_status')),
  ),
  fn('assert_overdue_bill_exists', ['customer_id', 'overdue_bill_id'], (self, a) => {
    const c = customerById(self, g(a, 'customer_id'));
    if (!has(attr(c, 'bill_ids'), g(a, 'overdue_bill_id'))) throw valueError(`Overdue bill ${text(g(a, 'overdue_bill_id'))} not found`);
    if (!same(attr(billById(self, g(a, 'overdue_bill_id')), 'status'), BillStatus.get('OVERDUE')))
      throw valueError(`Overdue bill ${text(g(a, 'overdue_bill_id'))} is not overdue`);
    return true;
  }),
  fn('assert_no_overdue_bill', ['overdue_bill_id'], (self, a) => {
    try {
      return same(attr(billById(self, g(a, 'overdue_bill_id')), 'status'), BillStatus.get('PAID'));
    } catch (e) {
      if (e instanceof PyException && e.pyType === 'ValueError') return true;
      throw e;
    }
  }),
  fn('get_available_plan_ids', [], (self) => list(self, 'plans').map((p) => attr(p, 'plan_id'))),
];

export { items, size };
