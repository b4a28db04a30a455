/**
 * What τ²'s policies ask that its reward does not look at, for airline, retail and telecom: an explicit "yes" in the
 * user's last words before each consequential write, an authenticated user before their records are read or changed,
 * only that user's records, transfers to a human, writes that failed, and the device actions telecom's policy asks the
 * agent to have the user do after a fix. τ²'s reward compares DB hashes, env assertions, reference actions and strings
 * said, so a write done without consent still earns 1. Deterministic readings of the dialogue and the replayed calls,
 * never part of the reward.
 */
import type { Tau2Evaluation } from '../../judge/tau2/evaluate';
import type { ReplayedCall } from '../../judge/tau2/records';
import { explicitYes } from '../procedure';
import { formatReward } from '../format';
import { callName, messageName } from './numbering';

export type Tau2ProcedureKind =
  'write-without-consent' | 'access-before-auth' | 'other-user-records' | 'transfer-to-human' | 'failed-write' | 'device-action-missing';

export interface Tau2ProcedureFinding {
  readonly kind: Tau2ProcedureKind;
  /** What the domain's policy asks and τ²'s reward ignores (the τ-bench findings' `procedure` group). */
  readonly group: 'procedure';
  /** The call that shows it (`Tau2CallView.index`), and the message it is about when that is not the call's own. */
  readonly call: number;
  readonly message?: number;
  readonly text: string;
}

/** Each kind in words, for the screen, the CLI's count and the report. */
export const TAU2_PROCEDURE_KINDS: Readonly<Record<Tau2ProcedureKind, string>> = {
  'write-without-consent': 'write without an explicit yes',
  'access-before-auth': 'access before authentication',
  'other-user-records': 'another user’s records',
  'transfer-to-human': 'transfer to a human',
  'failed-write': 'failed write',
  'device-action-missing': 'device action missing',
};

/** A simulation's procedure findings by kind in words (`EpisodeSummary.ignored`, what the overview and the CLI count). */
export const tau2Ignored = (findings: readonly { readonly kind: string; readonly group?: string }[]): string[] =>
  findings.flatMap((f) => (f.group === 'procedure' ? [TAU2_PROCEDURE_KINDS[f.kind as Tau2ProcedureKind]] : []));

/** What the group is, said once wherever it is shown. */
export const TAU2_PROCEDURE_NOTE =
  'what the domain’s policy asks and τ²’s reward ignores — a deterministic reading of the dialogue and the calls, not part of τ²’s reward';

/** How one domain's policy says who the user is, which records are theirs, and which writes need a yes. */
interface Policy {
  /** Agent writes the policy asks an explicit "yes" for. */
  readonly consent: ReadonlySet<string>;
  /** Agent calls that read or change a user's records (writes are always counted). */
  readonly access: ReadonlySet<string>;
  /** How the policy says the user is authenticated, in words. */
  readonly authWords: string;
  /** The user ids a successful call establishes (retail's lookups, telecom's customer lookups). */
  readonly identifies?: (c: ReplayedCall, output: string) => string[];
  /** Airline: the user authenticates by writing their user id. */
  readonly idsInUserText?: boolean;
  /** The argument, and the field of a call's JSON output, that name a record's owner. */
  readonly owner: string;
}

// Airline's and retail's user ids (`mia_li_3668`).
const USER_ID = /\b[a-z]+(?:_[a-z]+)+_\d{3,5}\b/gi;

/** A top-level string field of a JSON object output (a parsed tool answer); null when there is none. */
function outputField(output: string, key: string): string | null {
  if (!output.startsWith('{')) return null;
  try {
    const v = (JSON.parse(output) as Record<string, unknown>)[key];
    return typeof v === 'string' ? v : null;
  } catch {
    return null;
  }
}

const POLICIES: Readonly<Record<string, Policy>> = {
  airline: {
    // "Before taking any actions that update the booking database (booking, modifying flights, editing baggage, changing
    // cabin class, or updating passenger information), you must … obtain explicit user confirmation (yes)".
    consent: new Set(['book_reservation', 'cancel_reservation', 'update_reservation_flights', 'update_reservation_baggages', 'update_reservation_passengers']),
    access: new Set(['get_user_details', 'get_reservation_details']),
    authWords: 'airline’s policy: the user must provide their user id first',
    idsInUserText: true,
    owner: 'user_id',
  },
  retail: {
    // "Before taking any action that updates the database (cancel, modify, return, exchange)…"
    consent: new Set([
      'cancel_pending_order',
      'modify_pending_order_address',
      'modify_pending_order_items',
      'modify_pending_order_payment',
      'modify_user_address',
      'return_delivered_order_items',
      'exchange_delivered_order_items',
    ]),
    access: new Set(['get_user_details', 'get_order_details']),
    authWords: 'retail’s policy: locate the user id by email or by name and zip first, even when the user gives it',
    identifies: (c, output) => (c.name === 'find_user_id_by_email' || c.name === 'find_user_id_by_name_zip' ? [output.trim()] : []),
    owner: 'user_id',
  },
  telecom: {
    // Data refueling: "Confirm the price" before applying it.
    consent: new Set(['refuel_data']),
    access: new Set(['get_details_by_id', 'get_bills_for_customer', 'get_data_usage']),
    authWords: 'telecom’s policy: identify the customer first (by phone number, customer id, or full name with date of birth)',
    identifies: (c, output) => {
      if (!c.name.startsWith('get_customer_by_')) return [];
      const id = outputField(output, 'customer_id');
      return id === null ? [] : [id];
    },
    owner: 'customer_id',
  },
};

/** Telecom: after the agent's fix, the device tool the policy asks the user to call (the agent's own call in solo mode). */
const CHECKS = ['check_status_bar', 'check_network_status', 'run_speed_test', 'can_send_mms'];
const DEVICE_AFTER: Readonly<Record<string, readonly { readonly tools: readonly string[]; readonly what: string; readonly why: string }[]>> = {
  resume_line: [
    {
      tools: ['reboot_device'],
      what: 'reboot_device',
      why: 'the main policy says: “After you resume the line, the user will have to reboot their device to get service.”',
    },
    {
      tools: CHECKS,
      what: 'check of the device',
      why: 'the workflow asks after lifting a suspension: “Ask user to look at their status bar and check if service is restored.”',
    },
  ],
  enable_roaming: [
    {
      tools: CHECKS,
      what: 'check of the device',
      why: 'the workflow asks after enabling roaming on the line: “Ask user to rerun the speed test and check data connectivity.”',
    },
  ],
  refuel_data: [
    {
      tools: CHECKS,
      what: 'check of the device',
      why: 'the workflow asks after refueling data: “Ask user to rerun the speed test and check data connectivity.”',
    },
  ],
};

const TRANSFER = 'transfer_to_human_agents';
const HOLD = 'YOU ARE BEING TRANSFERRED TO A HUMAN AGENT';
// τ² users also answer in other languages (a French persona: "Oui, je confirme"): their yes and any form of "confirm".
const YES_ELSEWHERE = /(?<!\p{L})(oui|sí|ja|confirm\p{L}*)(?!\p{L})/iu;
const saysYes = (text: string): boolean => explicitYes(text) || YES_ELSEWHERE.test(text);

const NOT_COUNTED = 'Not part of τ²’s reward.';

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const quote = (s: string): string => `“${clip(s.replace(/\s+/g, ' ').trim(), 140)}”`;

/** The user's words in a message: a user message with text (a device tool call's message has none). */
const userText = (m: { readonly role: string; readonly content: string | null }): string | null =>
  m.role === 'user' && m.content !== null && m.content.trim() !== '' ? m.content : null;

/**
 * The procedure findings of one judged τ² simulation, in call order. Definitions (conservative: a finding only where the
 * dialogue shows it):
 * - consent: the user's last message with text before the message holding the write must contain an explicit yes
 *   (τ-bench's `explicitYes`: yes, yeah, confirm, go ahead, proceed, please do, … not negated in its sentence; or oui, sí, ja, any form of
 *   "confirm"); "please cancel it" alone is a request, not the confirmation the policy asks for; one yes covers the writes up to the
 *   user's next message; a simulation where the user never writes (solo mode, voice) gets no consent finding;
 * - authentication: retail — a successful find_user_id_by_email / _by_name_zip; airline — a user id written by the user;
 *   telecom — a successful get_customer_by_*; counted once, at the first call on a user's records before it;
 * - another user's records: the call's `user_id` / `customer_id` argument, or (airline, retail) the `user_id` of its JSON
 *   answer, is none of the authenticated users';
 * - failed write: a known, mutating call (agent's or user's) that τ² answers with an error;
 * - transfer: the first successful transfer_to_human_agents (the later ones counted in its text);
 * - device actions (telecom): a successful resume_line with no later reboot_device; a successful resume_line,
 *   enable_roaming or refuel_data with no later check of the device (status bar, network status, speed test, MMS) —
 *   made by the user, or by the agent in solo mode.
 */
export function tau2ProcedureFindings(e: Tau2Evaluation): Tau2ProcedureFinding[] {
  const domain = e.domain === undefined ? null : e.domain.replace(/-workflow$/, '');
  const policy = domain === null ? undefined : POLICIES[domain];
  if (policy === undefined) return [];
  const messages = e.simulation.messages;
  const userWrites = messages.some((m) => userText(m) !== null);
  const byMessage = new Map<number, ReplayedCall[]>();
  for (const c of e.toolCalls) byMessage.set(c.messageIndex, [...(byMessage.get(c.messageIndex) ?? []), c]);
  const out: Tau2ProcedureFinding[] = [];
  const auth = new Set<string>();
  let lastUser: number | null = null;
  let beforeAuth = false;
  let transferred = false;
  const referenceTransfers = e.actionChecks?.some((c) => c.action.name === TRANSFER) ?? null;
  for (let mi = 0; mi < messages.length; mi++) {
    const m = messages[mi]!;
    const said = userText(m);
    if (said !== null) {
      lastUser = mi;
      if (policy.idsInUserText) for (const id of said.match(USER_ID) ?? []) auth.add(id.toLowerCase());
    }
    for (const c of byMessage.get(mi) ?? []) {
      const output = c.output ?? c.recordedOutput ?? '';
      const agent = c.requestor === 'assistant';
      if (!c.error) for (const id of policy.identifies?.(c, output) ?? []) auth.add(id.toLowerCase());
      if (c.knownTool && c.mutating && c.error)
        out.push({
          kind: 'failed-write',
          group: 'procedure',
          call: c.index,
          text: `${c.name} (${callName(c.index)}, asked by the ${agent ? 'agent' : 'user'}) failed: τ² answered ${quote(output)}, and it changed nothing. ${NOT_COUNTED}`,
        });
      if (!agent) continue;
      if (c.name === TRANSFER && !c.error && !transferred) {
        transferred = true;
        const more = e.toolCalls.filter((x) => x.name === TRANSFER && x.requestor === 'assistant' && !x.error).length - 1;
        const next = messages.slice(mi + 1).find((x) => x.role === 'assistant' && x.content !== null && x.content.trim() !== '');
        out.push({
          kind: 'transfer-to-human',
          group: 'procedure',
          call: c.index,
          text:
            `The agent transferred the user to a human agent (${callName(c.index)}${more > 0 ? `, and ${more} more time${more === 1 ? '' : 's'} after it` : ''})` +
            // Solo mode's policy asks for the tool call only; the conversational one also for a hold message.
            (userWrites
              ? `; ${next?.content?.toUpperCase().includes(HOLD) ? 'it then sent the hold message the policy asks for' : 'its next words are not the policy’s hold message'}`
              : '') +
            `. τ² judges the DB as it is (reward ${formatReward(e.reward)})` +
            (referenceTransfers === null ? '.' : `; the task’s reference actions ${referenceTransfers ? 'transfer too' : 'do not transfer'}.`) +
            ` ${NOT_COUNTED}`,
        });
      }
      const writes = c.knownTool && c.mutating;
      if (!writes && !policy.access.has(c.name)) continue;
      if (writes && !c.error && userWrites && policy.consent.has(c.name)) {
        const last = lastUser === null ? null : messages[lastUser]!.content!;
        if (last === null || !saysYes(last))
          out.push({
            kind: 'write-without-consent',
            group: 'procedure',
            call: c.index,
            ...(lastUser !== null && { message: lastUser }),
            text:
              lastUser === null
                ? `${c.name} (${callName(c.index)}) changed the DB before the user had written anything: no explicit yes. ${NOT_COUNTED}`
                : `${c.name} (${callName(c.index)}) changed the DB without an explicit yes: the user’s last words before it (${messageName(lastUser)}) were ${quote(last!)}. ${NOT_COUNTED}`,
          });
      }
      const owner = typeof c.arguments.get(policy.owner) === 'string' ? (c.arguments.get(policy.owner) as string) : outputField(output, policy.owner);
      if (auth.size === 0) {
        if (!beforeAuth && !(policy.idsInUserText && !userWrites)) {
          beforeAuth = true;
          out.push({
            kind: 'access-before-auth',
            group: 'procedure',
            call: c.index,
            text: `${c.name} (${callName(c.index)}) ${writes ? 'changed' : 'read'} a user’s records before the user was authenticated (${policy.authWords}). ${NOT_COUNTED}`,
          });
        }
      } else if (owner !== null && !auth.has(owner.toLowerCase()))
        out.push({
          kind: 'other-user-records',
          group: 'procedure',
          call: c.index,
          text: `${c.name} (${callName(c.index)}) ${writes ? 'changed' : 'read'} records of ${owner}, not of the authenticated user (${[...auth].join(', ')}); the policy allows one user per conversation. ${NOT_COUNTED}`,
        });
    }
  }
  if (domain === 'telecom')
    for (const c of e.toolCalls) {
      if (c.error || c.requestor !== 'assistant') continue;
      for (const need of DEVICE_AFTER[c.name] ?? [])
        if (!e.toolCalls.some((d) => d.index > c.index && need.tools.includes(d.name) && !d.error))
          out.push({
            kind: 'device-action-missing',
            group: 'procedure',
            call: c.index,
            text: `${c.name} (${callName(c.index)}) succeeded, but no ${need.what} on the user’s device follows it; ${need.why} ${NOT_COUNTED}`,
          });
    }
  return out.sort((a, b) => a.call - b.call);
}
