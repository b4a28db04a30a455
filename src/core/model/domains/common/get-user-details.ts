import type { Domain } from '../../data/db';
import { jsonDumps } from '../../../py/json-dumps';
import { contains, getItem } from '../../../py/ops';
import { defineTool } from '../tool';

/** `get_user_details`: the same code in both domains (only the module path differs). */
export const makeGetUserDetails = (domain: Domain) =>
  defineTool({
    name: 'get_user_details',
    className: 'GetUserDetails',
    module: `tau_bench.envs.${domain}.tools.get_user_details`,
    params: ['user_id'],
    writes: false,
    invoke: (data, { user_id }) => {
      const users = getItem(data, 'users');
      if (contains(users, user_id)) return jsonDumps(getItem(users, user_id));
      return 'Error: user not found';
    },
  });
