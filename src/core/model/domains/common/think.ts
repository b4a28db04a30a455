import type { Domain } from '../../data/db';
import { defineTool } from '../tool';

export const makeThink = (domain: Domain) =>
  defineTool({
    name: 'think',
    className: 'Think',
    module: `tau_bench.envs.${domain}.tools.think`,
    params: ['thought'],
    writes: false,
    invoke: () => '',
  });
