import { jsonDumps } from '../../../py/json-dumps';
import { contains, getItem, setItem } from '../../../py/ops';
import { defineTool } from '../tool';
import { newAddress } from './address';

export const modifyUserAddress = defineTool({
  name: 'modify_user_address',
  className: 'ModifyUserAddress',
  module: 'tau_bench.envs.retail.tools.modify_user_address',
  params: ['user_id', 'address1', 'address2', 'city', 'state', 'country', 'zip'],
  writes: true,
  invoke: (data, { user_id, address1, address2, city, state, country, zip }) => {
    const users = getItem(data, 'users');
    if (!contains(users, user_id)) return 'Error: user not found';
    const user = getItem(users, user_id);
    setItem(user, 'address', newAddress({ address1, address2, city, state, country, zip }));
    return jsonDumps(user);
  },
});
