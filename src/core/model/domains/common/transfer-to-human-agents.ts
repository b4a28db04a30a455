import type { Domain } from '../../data/db';
import { defineTool } from '../tool';

export const makeTransferToHumanAgents = (domain: Domain) =>
  defineTool({
    name: 'transfer_to_human_agents',
    className: 'TransferToHumanAgents',
    module: `tau_bench.envs.${domain}.tools.transfer_to_human_agents`,
    params: ['summary'],
    writes: false,
    terminates: true,
    invoke: () => 'Transfer successful',
  });
