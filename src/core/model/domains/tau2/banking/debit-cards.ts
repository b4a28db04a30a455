/** banking_knowledge's discoverable debit-card tools (order, activate ×3, close, freeze, unfreeze, alerts, PINs, limits, listing), in τ²'s order. */
import type { ToolDef } from '../toolkit';
import { DEBIT_CARD_CONTROL_TOOLS } from './debit-card-controls';
import { DEBIT_CARD_ISSUE_TOOLS } from './debit-card-issue';

export const DEBIT_CARD_TOOLS: readonly ToolDef[] = [...DEBIT_CARD_ISSUE_TOOLS, ...DEBIT_CARD_CONTROL_TOOLS];
