import { parseJson } from '../../../../py/json-parse';
import type { TValue } from '../../../../py/pydantic';
import type { Tau2Domain } from '../toolkit';
import { RetailDb } from './models';
import { RETAIL_TOOLS } from './tools';

export const RETAIL: Tau2Domain = {
  name: 'retail',
  agent: {
    className: 'RetailTools',
    db: RetailDb,
    tools: RETAIL_TOOLS,
    functions: [],
    // Python parity: RetailTools' helpers, found by getattr (not ported).
    pythonOnly: ['_get_order', '_get_user', '_get_product', '_get_item', '_get_variant', '_get_payment_method', '_is_pending_order'],
  },
  user: null,
  dbFiles: { agent: 'db.json', user: null },
  parseDbFile: (text) => parseJson(text) as TValue,
  copyOnWrite: true,
};
