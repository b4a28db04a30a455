import { expect, it } from 'vitest';
import type { Db } from '../../../src/core/model/data/db';
import { TOOLS } from '../../../src/core/model/domains/registry';
import { executeTool } from '../../../src/core/env/execute';
import { jsonDumps } from '../../../src/core/py/json-dumps';
import { parseJson } from '../../../src/core/py/json-parse';
import { getItem } from '../../../src/core/py/ops';
import { pyRepr } from '../../../src/core/py/repr';
import type { PyDict, PyValue } from '../../../src/core/py/value';
import { COMMITS, describeShared, sharedDb } from '../../support/shared';

type Path = readonly (string | bigint)[];

interface Call {
  readonly tool: string;
  /** Tool arguments in Python's JSON dialect (ints stay ints, floats floats). */
  readonly kwargs: string;
  /** The exact observation; when absent, the observation must be `json.dumps` of the record at `returns`. */
  readonly obs?: string;
  readonly returns?: Path;
}

interface Case {
  readonly name: string;
  readonly calls: readonly Call[];
  /** `repr()` of values in the final DB. */
  readonly state?: readonly (readonly [Path, string])[];
}

const valueAt = (db: Db, path: Path): PyValue => path.reduce<PyValue>((v, k) => getItem(v, k), db);

const order = (id: string, ...rest: (string | bigint)[]): Path => ['orders', id, ...rest];
const giftCard = (user: string, id: string): Path => ['users', user, 'payment_methods', id, 'balance'];

const CASES: readonly Case[] = [
  {
    name: 'modify items: chained ids [X, Y] -> [Y, Z] rewrite the first item twice and leave the original Y alone',
    calls: [
      {
        tool: 'modify_pending_order_items',
        kwargs:
          '{"order_id": "#W8557584", "item_ids": ["9747045638", "8293778132"], "new_item_ids": ["8293778132", "9647374798"], "payment_method_id": "gift_card_3749819"}',
        returns: order('#W8557584'),
      },
    ],
    state: [
      [order('#W8557584', 'items', 2n, 'item_id'), "'9647374798'"],
      [order('#W8557584', 'items', 2n, 'price'), '109.58'],
      [order('#W8557584', 'items', 3n, 'item_id'), "'8293778132'"],
      [order('#W8557584', 'items', 3n, 'price'), '100.62'],
      [order('#W8557584', 'payment_history', -1n), "{'transaction_type': 'payment', 'amount': 15.569999999999993, 'payment_method_id': 'gift_card_3749819'}"],
      [giftCard('omar_kim_3528', 'gift_card_3749819'), '75.43'],
      [order('#W8557584', 'status'), "'pending (item modified)'"],
    ],
  },
  {
    name: 'modify items: a duplicated id is accepted up to its multiplicity in the order',
    calls: [
      {
        tool: 'modify_pending_order_items',
        kwargs:
          '{"order_id": "#W7208030", "item_ids": ["5753502325", "5753502325", "5753502325"], "new_item_ids": ["8481719475", "8481719475", "8481719475"], "payment_method_id": "credit_card_5809636"}',
        obs: 'Error: 5753502325 not found',
      },
      {
        tool: 'modify_pending_order_items',
        kwargs:
          '{"order_id": "#W7208030", "item_ids": ["5753502325", "5753502325"], "new_item_ids": ["8481719475", "9829827210"], "payment_method_id": "credit_card_5809636"}',
        returns: order('#W7208030'),
      },
    ],
    state: [
      [order('#W7208030', 'items', 0n, 'item_id'), "'8481719475'"],
      [order('#W7208030', 'items', 1n, 'item_id'), "'9829827210'"],
      [order('#W7208030', 'payment_history', -1n), "{'transaction_type': 'refund', 'amount': 3.6599999999999824, 'payment_method_id': 'credit_card_5809636'}"],
    ],
  },
  {
    name: 'modify items: [X, X] -> [X, W] rewrites the first X twice (int-valued float price kept as float)',
    calls: [
      {
        tool: 'modify_pending_order_items',
        kwargs:
          '{"order_id": "#W9093821", "item_ids": ["3557711149", "3557711149"], "new_item_ids": ["3557711149", "3928046918"], "payment_method_id": "credit_card_7422485"}',
        returns: order('#W9093821'),
      },
    ],
    state: [
      [order('#W9093821', 'items', 0n, 'item_id'), "'3928046918'"],
      [order('#W9093821', 'items', 0n, 'price'), '198.0'],
      [order('#W9093821', 'items', 2n, 'item_id'), "'3557711149'"],
      [order('#W9093821', 'payment_history', -1n), "{'transaction_type': 'refund', 'amount': 7.349999999999994, 'payment_method_id': 'credit_card_7422485'}"],
    ],
  },
  {
    name: 'modify items: failed checks leave the order untouched',
    calls: [
      {
        tool: 'modify_pending_order_items',
        kwargs: '{"order_id": "#W9132840", "item_ids": ["8573379326"], "new_item_ids": ["6048672633"], "payment_method_id": "credit_card_3593714"}',
        obs: 'Error: new item 6048672633 not found or available',
      },
      {
        tool: 'modify_pending_order_items',
        kwargs: '{"order_id": "#W9132840", "item_ids": ["8573379326"], "new_item_ids": ["9013366374"], "payment_method_id": "credit_card_9789590"}',
        obs: 'Error: payment method not found',
      },
      {
        tool: 'modify_pending_order_items',
        kwargs: '{"order_id": "#W9132840", "item_ids": [], "new_item_ids": null, "payment_method_id": "credit_card_3593714"}',
        obs: "Error: object of type 'NoneType' has no len()",
      },
      {
        tool: 'modify_pending_order_items',
        kwargs: '{"order_id": "#W9132840", "item_ids": 5, "new_item_ids": [], "payment_method_id": "credit_card_3593714"}',
        obs: "Error: 'int' object is not iterable",
      },
    ],
    state: [
      [order('#W9132840', 'status'), "'pending'"],
      [order('#W9132840', 'payment_history'), "[{'transaction_type': 'payment', 'amount': 598.57, 'payment_method_id': 'credit_card_3593714'}]"],
    ],
  },
  {
    name: 'cancel after a payment change refunds every history entry, the earlier refund included',
    calls: [
      { tool: 'modify_pending_order_payment', kwargs: '{"order_id": "#W6779827", "payment_method_id": "credit_card_9789590"}', returns: order('#W6779827') },
      { tool: 'cancel_pending_order', kwargs: '{"order_id": "#W6779827", "reason": "ordered by mistake"}', returns: order('#W6779827') },
    ],
    state: [
      [order('#W6779827', 'payment_history', 3n), "{'transaction_type': 'refund', 'amount': 4079.45, 'payment_method_id': 'gift_card_7219486'}"],
      [order('#W6779827', 'payment_history', 4n), "{'transaction_type': 'refund', 'amount': 4079.45, 'payment_method_id': 'credit_card_9789590'}"],
      [order('#W6779827', 'payment_history', 5n), "{'transaction_type': 'refund', 'amount': 4079.45, 'payment_method_id': 'gift_card_7219486'}"],
      [giftCard('ethan_lopez_6291', 'gift_card_7219486'), '12287.35'],
      [order('#W6779827', 'status'), "'cancelled'"],
      [order('#W6779827', 'cancel_reason'), "'ordered by mistake'"],
    ],
  },
  {
    name: 'cancel: reason and order id are compared by value and type',
    calls: [
      { tool: 'cancel_pending_order', kwargs: '{"order_id": "#W6779827", "reason": ["no longer needed"]}', obs: 'Error: invalid reason' },
      { tool: 'cancel_pending_order', kwargs: '{"order_id": "#W6779827", "reason": null}', obs: 'Error: invalid reason' },
      { tool: 'cancel_pending_order', kwargs: '{"order_id": true, "reason": "no longer needed"}', obs: 'Error: order not found' },
    ],
    state: [[order('#W6779827', 'status'), "'pending'"]],
  },
  {
    name: 'modify payment: only pending orders, the current method is rejected',
    calls: [
      {
        tool: 'modify_pending_order_payment',
        kwargs: '{"order_id": "#W1840144", "payment_method_id": "x"}',
        obs: 'Error: non-pending order cannot be modified',
      },
      {
        tool: 'modify_pending_order_payment',
        kwargs: '{"order_id": "#W6779827", "payment_method_id": "gift_card_7219486"}',
        obs: 'Error: the new payment method should be different from the current one',
      },
    ],
  },
  {
    name: 'exchange: both id lists are sorted independently and the difference is rounded',
    calls: [
      {
        tool: 'exchange_delivered_order_items',
        kwargs:
          '{"order_id": "#W7728728", "item_ids": ["8555936349", "1437889264"], "new_item_ids": ["9580569596", "1615379700"], "payment_method_id": "gift_card_2742113"}',
        obs: 'Error: insufficient gift card balance to pay for the price difference',
      },
      {
        tool: 'exchange_delivered_order_items',
        kwargs:
          '{"order_id": "#W7728728", "item_ids": ["8555936349", "1437889264"], "new_item_ids": ["9580569596", "1615379700"], "payment_method_id": "paypal_7859314"}',
        returns: order('#W7728728'),
      },
    ],
    state: [
      [order('#W7728728', 'status'), "'exchange requested'"],
      [order('#W7728728', 'exchange_items'), "['1437889264', '8555936349']"],
      [order('#W7728728', 'exchange_new_items'), "['1615379700', '9580569596']"],
      [order('#W7728728', 'exchange_price_difference'), '26.69'],
      [order('#W7728728', 'payment_history'), "[{'transaction_type': 'payment', 'amount': 484.58, 'payment_method_id': 'paypal_7859314'}]"],
    ],
  },
  {
    name: 'exchange: an integral rounded difference stays a float and the gift card is not charged',
    calls: [
      {
        tool: 'exchange_delivered_order_items',
        kwargs: '{"order_id": "#W7728728", "item_ids": ["8555936349"], "new_item_ids": ["1646531091"], "payment_method_id": "gift_card_2742113"}',
        returns: order('#W7728728'),
      },
    ],
    state: [
      [order('#W7728728', 'exchange_price_difference'), '6.0'],
      [giftCard('aarav_nguyen_7344', 'gift_card_2742113'), '22'],
    ],
  },
  {
    name: 'exchange: a string is iterated per character',
    calls: [
      {
        tool: 'exchange_delivered_order_items',
        kwargs: '{"order_id": "#W7728728", "item_ids": "12", "new_item_ids": "ab", "payment_method_id": "paypal_7859314"}',
        obs: 'Error: 1 not found',
      },
    ],
    state: [[order('#W7728728', 'status'), "'delivered'"]],
  },
  {
    name: 'exchange: an empty dict and an empty string act as empty sequences (int 0 difference)',
    calls: [
      {
        tool: 'exchange_delivered_order_items',
        kwargs: '{"order_id": "#W7728728", "item_ids": {}, "new_item_ids": "", "payment_method_id": "paypal_7859314"}',
        returns: order('#W7728728'),
      },
    ],
    state: [
      [order('#W7728728', 'exchange_items'), '[]'],
      [order('#W7728728', 'exchange_new_items'), '[]'],
      [order('#W7728728', 'exchange_price_difference'), '0'],
    ],
  },
  {
    name: 'return: an empty string is an empty list; a non-original gift card is allowed',
    calls: [
      {
        tool: 'return_delivered_order_items',
        kwargs: '{"order_id": "#W7728728", "item_ids": [], "payment_method_id": ["x"]}',
        obs: "Error: unhashable type: 'list'",
      },
      {
        tool: 'return_delivered_order_items',
        kwargs: '{"order_id": "#W7728728", "item_ids": "", "payment_method_id": "gift_card_2742113"}',
        returns: order('#W7728728'),
      },
    ],
    state: [
      [order('#W7728728', 'status'), "'return requested'"],
      [order('#W7728728', 'return_items'), '[]'],
      [order('#W7728728', 'return_payment_method_id'), "'gift_card_2742113'"],
    ],
  },
  {
    name: 'address: values stored verbatim, state before country',
    calls: [
      {
        tool: 'modify_pending_order_address',
        kwargs: '{"order_id": "#W6779827", "address1": ["a"], "address2": null, "city": 1.0, "state": true, "country": 12345678901234567890, "zip": "1"}',
        returns: order('#W6779827'),
      },
    ],
    state: [[order('#W6779827', 'address'), "{'address1': ['a'], 'address2': None, 'city': 1.0, 'state': True, 'country': 12345678901234567890, 'zip': '1'}"]],
  },
  {
    name: 'lookups: short-circuit order decides which argument raises',
    calls: [
      { tool: 'find_user_id_by_name_zip', kwargs: '{"first_name": "Zed", "last_name": null, "zip": "19122"}', obs: 'Error: user not found' },
      {
        tool: 'find_user_id_by_name_zip',
        kwargs: '{"first_name": "yusuf", "last_name": null, "zip": "19122"}',
        obs: "Error: 'NoneType' object has no attribute 'lower'",
      },
      { tool: 'find_user_id_by_name_zip', kwargs: '{"first_name": "yusuf", "last_name": "rossi", "zip": null}', obs: 'Error: user not found' },
      { tool: 'find_user_id_by_email', kwargs: '{"email": ["a"]}', obs: "Error: 'list' object has no attribute 'lower'" },
      { tool: 'get_product_details', kwargs: '{"product_id": "8573379326"}', obs: 'Error: product not found' },
    ],
  },
];

describeShared('retail tools (τ-bench 14bf0ef semantics)', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    let state = sharedDb(COMMITS.pinned, 'retail');
    c.calls.forEach((call, i) => {
      const tool = TOOLS.retail.get(call.tool);
      expect(tool, call.tool).toBeDefined();
      const out = executeTool(state, tool!, parseJson(call.kwargs) as PyDict);
      state = out.state;
      if (call.obs !== undefined) expect(out.observation, `call ${i}`).toBe(call.obs);
      else expect(out.observation, `call ${i}`).toBe(jsonDumps(valueAt(state, call.returns ?? [])));
    });
    for (const [path, repr] of c.state ?? []) expect(pyRepr(valueAt(state, path)), path.join('/')).toBe(repr);
  });

  it('modify items: the item shares the product variant options dict', () => {
    const out = executeTool(
      sharedDb(COMMITS.pinned, 'retail'),
      TOOLS.retail.get('modify_pending_order_items')!,
      parseJson('{"order_id": "#W9093821", "item_ids": ["3557711149"], "new_item_ids": ["3928046918"], "payment_method_id": "credit_card_7422485"}') as PyDict,
    );
    const itemOptions = valueAt(out.state, order('#W9093821', 'items', 0n, 'options'));
    const variantOptions = valueAt(out.state, ['products', '2524789262', 'variants', '3928046918', 'options']);
    expect(itemOptions).toBe(variantOptions);
  });

  it('cancel keeps the history order and appends cancel_reason last', () => {
    const out = executeTool(
      sharedDb(COMMITS.pinned, 'retail'),
      TOOLS.retail.get('cancel_pending_order')!,
      parseJson('{"order_id": "#W6779827", "reason": "no longer needed"}') as PyDict,
    );
    const keys = [...(valueAt(out.state, order('#W6779827')) as PyDict).keys()];
    expect(keys).toEqual(['order_id', 'user_id', 'address', 'items', 'fulfillments', 'status', 'payment_history', 'cancel_reason']);
  });

  it('registers the retail tools in ALL_TOOLS order', () => {
    const names = [...TOOLS.retail.keys()].filter((n) => n !== 'calculate');
    expect(names).toEqual([
      'cancel_pending_order',
      'exchange_delivered_order_items',
      'find_user_id_by_email',
      'find_user_id_by_name_zip',
      'get_order_details',
      'get_product_details',
      'get_user_details',
      'list_all_product_types',
      'modify_pending_order_address',
      'modify_pending_order_items',
      'modify_pending_order_payment',
      'modify_user_address',
      'return_delivered_order_items',
      'think',
      'transfer_to_human_agents',
    ]);
  });

  // json.loads returns one shared NaN object, so Python's list.count / `in` (identity first) match it.
  it.each([
    ['return_delivered_order_items', '{"order_id": "#W2378156", "item_ids": [NaN], "payment_method_id": "credit_card_9513926"}', 'Error: some item not found'],
    [
      'exchange_delivered_order_items',
      '{"order_id": "#W2378156", "item_ids": [NaN], "new_item_ids": ["1"], "payment_method_id": "credit_card_9513926"}',
      'Error: nan not found',
    ],
    [
      'modify_pending_order_items',
      '{"order_id": "#W6779827", "item_ids": [NaN], "new_item_ids": ["1"], "payment_method_id": "gift_card_7219486"}',
      'Error: nan not found',
    ],
  ])('item_ids [NaN] in %s', (tool, kwargs, obs) => {
    const out = executeTool(sharedDb(COMMITS.pinned, 'retail'), TOOLS.retail.get(tool)!, parseJson(kwargs) as PyDict);
    expect(out.observation).toBe(obs);
  });
});
