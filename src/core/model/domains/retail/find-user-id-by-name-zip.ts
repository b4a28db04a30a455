import { dictItems } from '../../../py/dict-methods';
import { eq, getItem, lower } from '../../../py/ops';
import { defineTool } from '../tool';

export const findUserIdByNameZip = defineTool({
  name: 'find_user_id_by_name_zip',
  className: 'FindUserIdByNameZip',
  module: 'tau_bench.envs.retail.tools.find_user_id_by_name_zip',
  params: ['first_name', 'last_name', 'zip'],
  writes: false,
  invoke: (data, { first_name, last_name, zip }) => {
    for (const [userId, profile] of dictItems(getItem(data, 'users'))) {
      if (
        lower(getItem(getItem(profile, 'name'), 'first_name')) === lower(first_name) &&
        lower(getItem(getItem(profile, 'name'), 'last_name')) === lower(last_name) &&
        eq(getItem(getItem(profile, 'address'), 'zip'), zip)
      )
        return userId;
    }
    return 'Error: user not found';
  },
});
