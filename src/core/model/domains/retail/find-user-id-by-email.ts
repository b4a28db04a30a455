import { dictItems } from '../../../py/dict-methods';
import { getItem, lower } from '../../../py/ops';
import { defineTool } from '../tool';

export const findUserIdByEmail = defineTool({
  name: 'find_user_id_by_email',
  className: 'FindUserIdByEmail',
  module: 'tau_bench.envs.retail.tools.find_user_id_by_email',
  params: ['email'],
  writes: false,
  invoke: (data, { email }) => {
    for (const [userId, profile] of dictItems(getItem(data, 'users'))) {
      if (lower(getItem(profile, 'email')) === lower(email)) return userId;
    }
    return 'Error: user not found';
  },
});
