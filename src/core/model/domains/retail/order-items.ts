import { add, contains, count, eq, getItem, iterate, sub, truthy } from '../../../py/ops';
import { pyStr } from '../../../py/repr';
import { pyZip } from '../../../py/zip';
import type { PyValue } from '../../../py/value';

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

/**
 * `0 + Σ(new price − old price)` over the pairs in argument order (unrounded), or the error
 * text for the first new item that is not an available variant of the old item's product.
 */
// Python parity: the diff_price loop of ExchangeDeliveredOrderItems and ModifyPendingOrderItems.
export function priceDifference(products: PyValue, order: PyValue, itemIds: PyValue, newItemIds: PyValue): { readonly diff: PyValue } | string {
  let diff: PyValue = 0n;
  for (const [itemId, newItemId] of pyZip(itemIds, newItemIds)) {
    const item = firstItemWithId(order, itemId);
    const productId = getItem(item, 'product_id');
    const variants = getItem(getItem(products, productId), 'variants');
    if (!(contains(variants, newItemId) && truthy(getItem(getItem(variants, newItemId), 'available'))))
      return `Error: new item ${pyStr(newItemId)} not found or available`;
    const oldPrice = getItem(item, 'price');
    const newPrice = getItem(getItem(variants, newItemId), 'price');
    diff = add(diff, sub(newPrice, oldPrice), '+=');
  }
  return { diff };
}
