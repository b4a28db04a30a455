import { parseJson } from '../../../../py/json-parse';
import type { TDict, TValue } from '../../../../py/pydantic';
import type { MethodDef, Tau2Domain } from '../toolkit';
import { dictKey, iterate, truthy } from './py';
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

/** KnowledgeTools' methods that are not tools, reached by name (an initialization action, an env assertion). */
const AGENT_FUNCTIONS: readonly MethodDef[] = [
  {
    name: 'set_read_log_allowlist',
    params: [{ name: 'allowlist' }],
    // Python parity: KnowledgeTools.set_read_log_allowlist — `self._read_log_allowlist = set(allowlist or [])`: a
    // non-iterable or an unhashable item raises TypeError as set() does; only a str item can name a tool.
    run: (self, a) => {
      const v = a.get('allowlist')!;
      const items = truthy(v) ? iterate(v) : [];
      for (const x of items) dictKey(x);
      self.readLogAllowlist = new Set(items.filter((x): x is string => typeof x === 'string'));
      return null;
    },
  },
];

export const BANKING: Tau2Domain = {
  name: 'banking_knowledge',
  agent: {
    className: 'KnowledgeTools',
    db: TransactionalDb,
    tools: AGENT_TOOLS,
    functions: AGENT_FUNCTIONS,
    // Python parity: KnowledgeTools' own methods and attributes, found by getattr (not ported as such).
    pythonOnly: [
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
