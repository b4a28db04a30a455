/**
 * banking_knowledge's discoverable agent tools (`@is_discoverable_tool` methods of `KnowledgeTools`), in the order
 * τ²'s class defines them: on transactions, credit card accounts and bank accounts (one file each).
 */
import type { ToolDef } from '../toolkit';
import { BANK_ACCOUNT_TOOLS } from './agent-bank-accounts';
import { CREDIT_CARD_TOOLS } from './agent-credit-cards';
import { TRANSACTION_TOOLS } from './agent-transactions';

export { transactionId } from './discoverable-helpers';

export const DISCOVERABLE_AGENT_TOOLS: readonly ToolDef[] = [...TRANSACTION_TOOLS, ...CREDIT_CARD_TOOLS, ...BANK_ACCOUNT_TOOLS];
