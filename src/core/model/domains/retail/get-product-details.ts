import { jsonDumps } from '../../../py/json-dumps';
import { contains, getItem } from '../../../py/ops';
import { defineTool } from '../tool';

export const getProductDetails = defineTool({
  name: 'get_product_details',
  className: 'GetProductDetails',
  module: 'tau_bench.envs.retail.tools.get_product_details',
  params: ['product_id'],
  writes: false,
  invoke: (data, { product_id }) => {
    const products = getItem(data, 'products');
    if (contains(products, product_id)) return jsonDumps(getItem(products, product_id));
    return 'Error: product not found';
  },
});
