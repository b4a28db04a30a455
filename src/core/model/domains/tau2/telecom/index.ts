import { ge } from '../../../../py/ops';
import { parseToml } from '../../../../py/toml';
import { PydModel, validate, type TValue } from '../../../../py/pydantic';
import type { PyValue } from '../../../../py/value';
import { attr, plus, same, setAttr } from '../py-attrs';
import type { Tau2Domain, Toolkit } from '../toolkit';
import { LineStatus, TelecomDb } from './models';
import { billsAwaitingPayment, customerByPhone, lineByPhone, planById, setBillToPaid, TELECOM_FUNCTIONS, TELECOM_TOOLS } from './tools';
import { PaymentRequest, TelecomUserDb } from './user-models';
import { TELECOM_USER_PYTHON_ONLY, USER_FUNCTIONS } from './user-functions';
import { USER_TOOLS } from './user-tools';

// Python parity: TelecomEnvironment.sync_tools — the line's state mirrored onto the user's surroundings,
// a paid payment request settles its bill, a bill awaiting payment becomes the user's payment request.
function syncTools(agent: Toolkit | null, user: Toolkit | null): void {
  if (!agent || !user) return;
  const sur = user.db.get('surroundings') as PydModel;
  const phone = attr(sur, 'phone_number');
  if (phone === null) return;
  const line = lineByPhone(agent, phone);
  setAttr(sur, 'line_active', same(attr(line, 'status'), LineStatus.get('ACTIVE')));
  setAttr(sur, 'roaming_allowed', attr(line, 'roaming_enabled') === true);
  const plan = planById(agent, attr(line, 'plan_id'));
  setAttr(
    sur,
    'mobile_data_usage_exceeded',
    ge(attr(line, 'data_used_gb') as PyValue, plus(attr(plan, 'data_limit_gb'), attr(line, 'data_refueling_gb')) as PyValue),
  );
  const request = attr(sur, 'payment_request');
  if (request !== null && attr(request, 'paid') === true) {
    setBillToPaid(agent, attr(request, 'bill_id'));
    setAttr(sur, 'payment_request', null);
  }
  if (attr(sur, 'payment_request') === null) {
    const bills = billsAwaitingPayment(agent, customerByPhone(agent, phone));
    if (bills.length > 0)
      setAttr(
        sur,
        'payment_request',
        validate(
          PaymentRequest,
          new Map<string, TValue>([
            ['bill_id', attr(bills[0]!, 'bill_id')],
            ['amount_due', attr(bills[0]!, 'total_due')],
          ]),
        ),
      );
  }
}

export const TELECOM: Tau2Domain = {
  name: 'telecom',
  agent: {
    className: 'TelecomTools',
    db: TelecomDb,
    tools: TELECOM_TOOLS,
    functions: TELECOM_FUNCTIONS,
    // Python parity: TelecomTools' helpers and attributes, found by getattr (not ported).
    pythonOnly: [
      'id_generator',
      '_get_line_by_phone',
      '_get_line_by_id',
      '_get_plan_by_id',
      '_get_device_by_id',
      '_get_bill_by_id',
      '_get_target_line',
      'get_available_plan_ids',
      '_get_bills_awaiting_payment',
      '_set_bill_to_paid',
      '_apply_one_time_charge',
    ],
  },
  user: {
    className: 'TelecomUserTools',
    db: TelecomUserDb,
    tools: USER_TOOLS,
    functions: USER_FUNCTIONS,
    // Python parity: TelecomUserTools' properties and private helpers, found by getattr (not ported).
    pythonOnly: TELECOM_USER_PYTHON_ONLY,
  },
  dbFiles: { agent: 'db.toml', user: 'user_db.toml' },
  parseDbFile: (text) => parseToml(text) as TValue,
  syncTools,
};
