import { inertJson, NOTE_LABELS, type StepEdit } from '../core/contract';
import type { LabelFilter } from './notes-slice';
import type { Filters, ReasonFilter, Sort, SortKey } from './rows';
import { checkEdits } from '../protocol/share-context';
import { decodePayload, encodePayload } from '../formats/share-codec';

/**
 * The place a link restores: `#run=<url>&data=<url base>&episode=<index>&step=<n>`; instead of `run`,
 * `sample=<name>` for a bundled sample, `file=<name>` for the last local file kept in this browser, or
 * `ep=<episode>` for one episode carried in the link itself (deflated JSON, base64url: no server needed).
 */
export interface Link {
  readonly run: string | null;
  readonly sample: string | null;
  readonly file: string | null;
  readonly ep: string | null;
  readonly data: string | null;
  readonly episode: number | null;
  readonly step: number | null;
  /** What-if edits of the episode (`whatif=`, deflated JSON, base64url). */
  readonly whatIf?: string | null;
  /** The overview as it was: only failed (`failed=1`), a reason (`reason=`), a task (`task=`), a label (`label=`). */
  readonly failed?: boolean;
  readonly reason?: string | null;
  readonly task?: number | null;
  readonly label?: string | null;
  /** The message search (`q=`). */
  readonly query?: string | null;
  /** The sort: `sort=<key>`, `sort=-<key>` descending; absent for file order. */
  readonly sort?: string | null;
  /** Teaching mode (`teach=1`): the episode opens as "judge it yourself", its verdict hidden until revealed. */
  readonly teach?: boolean;
}

/** The overview fields of a link, for comparing two links. */
export const viewKey = (l: Link): string =>
  JSON.stringify([l.failed ?? false, l.reason ?? null, l.task ?? null, l.label ?? null, l.query ?? null, l.sort ?? null]);

export const EMPTY_LINK: Link = { run: null, sample: null, file: null, ep: null, data: null, episode: null, step: null };

const nat = (v: string | null): number | null => (v !== null && /^\d+$/.test(v) ? Number(v) : null);

export function parseLink(hash: string): Link {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const text = (k: string): string | null => {
    const v = p.get(k);
    return v === null || v === '' ? null : v;
  };
  return {
    run: text('run'),
    sample: text('sample'),
    file: text('file'),
    ep: text('ep'),
    data: text('data'),
    episode: nat(p.get('episode')),
    step: nat(p.get('step')),
    ...(text('whatif') !== null && { whatIf: text('whatif') }),
    ...(p.get('failed') === '1' && { failed: true }),
    ...(text('reason') !== null && { reason: text('reason') }),
    ...(nat(p.get('task')) !== null && { task: nat(p.get('task')) }),
    ...(text('label') !== null && { label: text('label') }),
    ...(text('q') !== null && { query: text('q') }),
    ...(text('sort') !== null && { sort: text('sort') }),
    ...(p.get('teach') === '1' && { teach: true }),
  };
}

/** Keeps `:/` readable in URLs inside the fragment; `&`, `#`, `%`, `=` and spaces stay escaped. */
const enc = (v: string): string => encodeURIComponent(v).replace(/%2F/gi, '/').replace(/%3A/gi, ':');

export function formatLink(l: Link): string {
  const parts: string[] = [];
  if (l.run !== null) parts.push(`run=${enc(l.run)}`);
  else if (l.sample !== null) parts.push(`sample=${enc(l.sample)}`);
  else if (l.ep !== null) parts.push(`ep=${l.ep}`);
  else if (l.file !== null) parts.push(`file=${enc(l.file)}`);
  if (l.data !== null) parts.push(`data=${enc(l.data)}`);
  if (l.episode !== null) parts.push(`episode=${l.episode}`);
  if (l.episode !== null && l.step !== null) parts.push(`step=${l.step}`);
  if (l.failed) parts.push('failed=1');
  if (l.reason != null) parts.push(`reason=${enc(l.reason)}`);
  if (l.task != null) parts.push(`task=${l.task}`);
  if (l.label != null) parts.push(`label=${enc(l.label)}`);
  if (l.query != null && l.query !== '') parts.push(`q=${enc(l.query)}`);
  if (l.sort != null) parts.push(`sort=${enc(l.sort)}`);
  if (l.episode !== null && l.whatIf != null) parts.push(`whatif=${l.whatIf}`);
  if (l.episode !== null && l.teach) parts.push('teach=1');
  return parts.length ? `#${parts.join('&')}` : '';
}

/** What-if edits as a link parameter. */
export const encodeEdits = (edits: readonly StepEdit[]): string => encodePayload(inertJson(edits));

/** What-if edits are small: a payload past these is not one this app wrote. */
const EDITS_LIMITS = { maxChars: 1024 * 1024, maxBytes: 1024 * 1024 };

/** What-if edits back from a link; throws a readable Error when they are damaged. */
export function decodeEdits(payload: string): StepEdit[] {
  let value: unknown;
  try {
    value = JSON.parse(decodePayload(payload, EDITS_LIMITS));
  } catch (e) {
    throw new Error(`the what-if edits in this link are damaged: ${(e as Error).message}`);
  }
  const r = checkEdits(value);
  if ('error' in r) throw new Error(`the what-if edits in this link were left out: ${r.error}`);
  return r.edits;
}

/** The overview state a link restores, checked (a value this app does not know is dropped). */
export interface LinkView {
  readonly filters: Filters;
  readonly sort: Sort;
  readonly query: string;
  readonly label: LabelFilter | null;
}

const REASON_FILTERS: readonly string[] = [
  'tau2:DB',
  'tau2:ENV_ASSERTION',
  'tau2:ACTION',
  'tau2:COMMUNICATE',
  'tau2:NL_ASSERTION',
  'tau2:premature',
  'db-mismatch',
  'missing-output',
  'never-finished',
  'crash',
  'db-not-judged',
  'error',
  'disagree',
] satisfies readonly ReasonFilter[];
const SORT_KEYS: readonly string[] = ['index', 'task', 'trial', 'recorded', 'reward', 'turns'] satisfies readonly SortKey[];
const LABEL_FILTERS: readonly string[] = [...NOTE_LABELS, 'labelled', 'unlabelled'];

export function viewFromLink(l: Link): LinkView {
  const desc = l.sort?.startsWith('-') ?? false;
  const key = l.sort?.replace(/^-/, '') ?? 'index';
  return {
    filters: {
      failedOnly: l.failed ?? false,
      reason: l.reason != null && REASON_FILTERS.includes(l.reason) ? (l.reason as ReasonFilter) : null,
      taskId: l.task ?? null,
    },
    sort: SORT_KEYS.includes(key) ? { key: key as SortKey, desc } : { key: 'index', desc: false },
    query: l.query ?? '',
    label: l.label != null && LABEL_FILTERS.includes(l.label) ? (l.label as LabelFilter) : null,
  };
}

/** The link fields of an overview state (file order, no filter and no search leave nothing). */
export function viewToLink(v: LinkView): Pick<Link, 'failed' | 'reason' | 'task' | 'label' | 'query' | 'sort'> {
  return {
    ...(v.filters.failedOnly && { failed: true }),
    ...(v.filters.reason !== null && { reason: v.filters.reason }),
    ...(v.filters.taskId !== null && { task: v.filters.taskId }),
    ...(v.label !== null && { label: v.label }),
    ...(v.query.trim() !== '' && { query: v.query }),
    ...((v.sort.key !== 'index' || v.sort.desc) && { sort: `${v.sort.desc ? '-' : ''}${v.sort.key}` }),
  };
}

/**
 * The longest link "Share episode" copies. Browsers take far longer URLs (Chromium 2 MB), but a
 * link is only useful if it survives where people paste it: a Slack message holds 40,000
 * characters, a Teams message about 28,000, a GitHub comment 65,536, and several mail clients
 * and URL shorteners cut or refuse links past 32 KB. 32,000 characters fits the common ones with
 * room for a sentence around it; past that the app offers the episode file instead.
 */
export const MAX_LINK_CHARS = 32_000;
