import { dictValues } from '../../../py/dict-methods';
import { sortedKeys } from '../../../py/hashable';
import { jsonDumps } from '../../../py/json-dumps';
import { getItem, setItem } from '../../../py/ops';
import type { PyDict } from '../../../py/value';
import { defineTool } from '../tool';

export const listAllProductTypes = defineTool({
  name: 'list_all_product_types',
  className: 'ListAllProductTypes',
  module: 'tau_bench.envs.retail.tools.list_all_product_types',
  params: [],
  writes: false,
  invoke: (data) => {
    const byName: PyDict = new Map();
    for (const product of dictValues(getItem(data, 'products'))) setItem(byName, getItem(product, 'name'), getItem(product, 'product_id'));
    // Python parity: sorted(dict.items()) — names are unique keys, so only they are compared (by code point).
    const sorted: PyDict = new Map();
    for (const name of sortedKeys(byName)) sorted.set(name, byName.get(name)!);
    return jsonDumps(sorted);
  },
});
