import { count, eq, getItem, iterate } from '../../py/ops';
import type { PyValue } from '../../py/value';

/**
 * The multiplicity check shared by the exchange, return and modify-items tools: the first
 * element of `itemIds` that occurs more often there than among the order's item ids.
 */
// Python parity: the item_ids.count check of Exchange/Return DeliveredOrderItems and ModifyPendingOrderItems.
export function firstExcessItem(order: PyValue, itemIds: PyValue): { readonly itemId: PyValue } | undefined {
  const allItemIds = iterate(getItem(order, 'items')).map((item) => getItem(item, 'item_id'));
  for (const itemId of iterate(itemIds)) {
    if (count(itemIds, itemId) > count(allItemIds, itemId)) return { itemId };
  }
  return undefined;
}

/** The first order item whose current `item_id` equals `itemId`. */
// Python parity: `[item for item in order["items"] if item["item_id"] == item_id][0]`.
export function firstItemWithId(order: PyValue, itemId: PyValue): PyValue {
  const matches = iterate(getItem(order, 'items')).filter((item) => eq(getItem(item, 'item_id'), itemId));
  return getItem(matches, 0n);
}
