import { parseJson } from '../../../../py/json-parse';
import type { TDict, TValue } from '../../../../py/pydantic';
import type { Tau2Domain } from '../toolkit';
import { AGENT_TOOLS } from './agent-tools';
import { bankingCopy, bankingInitialized } from './copy';
import { TransactionalDb } from './models';
import { USER_FUNCTIONS, USER_TOOLS } from './user-tools';

/**
 * The discoverable tools the task's gold actions call through `call_discoverable_agent_tool`: reads of these are
 * logged into the DB, other reads are not (τ² v1.0.1, #329).
 */
// Python parity: runner.build._derive_read_log_allowlist, passed as evaluate_trajectories._build_eval_env_kwargs passes it.
export function deriveReadLogAllowlist(goldActions: readonly { readonly name: string; readonly arguments: TDict }[]): Set<string> {
  const out = new Set<string>();
  for (const action of goldActions) {
    if (action.name !== 'call_discoverable_agent_tool') continue;
    const name = action.arguments.get('agent_tool_name');
    // Python parity: `if name:` — any truthy value is added; only a str can ever match a tool's name.
    if (typeof name === 'string' && name !== '') out.add(name);
  }
  return out;
}

export const BANKING: Tau2Domain = {
  name: 'banking_knowledge',
  agent: {
    className: 'KnowledgeTools',
    db: TransactionalDb,
    tools: AGENT_TOOLS,
    functions: [],
    // Python parity: KnowledgeTools' own methods and attributes, found by getattr (not ported as such).
    pythonOnly: [
      'set_read_log_allowlist',
      'get_user_discoverable_tools_state',
      'get_agent_discoverable_tools_state',
      '_agent_discoverable_tools_state',
      '_user_discoverable_tools_state',
      '_read_log_allowlist',
    ],
  },
  user: {
    className: 'KnowledgeUserTools',
    db: TransactionalDb,
    tools: USER_TOOLS,
    functions: USER_FUNCTIONS,
    pythonOnly: ['_check_tool_given', '_log_user_tool_call'],
  },
  dbFiles: { agent: 'db.json', user: null },
  parseDbFile: (text) => parseJson(text) as TValue,
  sharedDb: true,
  retrievalTools: new Set(['KB_search_bm25', 'KB_search_dense', 'shell', 'KB_search', 'grep']),
  copyDb: bankingCopy,
  initializeDb: bankingInitialized,
  readLogAllowlist: deriveReadLogAllowlist,
};
