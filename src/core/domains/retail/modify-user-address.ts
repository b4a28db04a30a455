import { jsonDumps } from '../../py/json-dumps';
import { contains, getItem, setItem } from '../../py/ops';
import type { PyValue } from '../../py/value';
import { defineTool } from '../tool';

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
    // Python parity: ModifyUserAddress.invoke writes `state` before `country` and stores values verbatim.
    setItem(
      user,
      'address',
      new Map<string, PyValue>([
        ['address1', address1],
        ['address2', address2],
        ['city', city],
        ['state', state],
        ['country', country],
        ['zip', zip],
      ]),
    );
    return jsonDumps(user);
  },
});
