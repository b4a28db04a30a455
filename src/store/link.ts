import type { StepEdit } from '../core/contract';
import { decodeSmallPayload, encodeEpisode } from './share-codec';

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
}

export const EMPTY_LINK: Link = { run: null, sample: null, file: null, ep: null, data: null, episode: null, step: null };

const nat = (v: string | null): number | null => (v !== null && /^\d+$/.test(v) ? Number(v) : null);

export function parseLink(hash: string): Link {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const text = (k: string): string | null => {
    const v = p.get(k);
    return v === null || v === '' ? null : v;
  };
  return { run: text('run'), sample: text('sample'), file: text('file'), ep: text('ep'), data: text('data'), episode: nat(p.get('episode')), step: nat(p.get('step')), ...(text('whatif') !== null && { whatIf: text('whatif') }) };
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
  if (l.episode !== null && l.whatIf != null) parts.push(`whatif=${l.whatIf}`);
  return parts.length ? `#${parts.join('&')}` : '';
}

/** What-if edits as a link parameter. */
export const encodeEdits = (edits: readonly StepEdit[]): string => encodeEpisode(JSON.stringify(edits));

/** What-if edits back from a link; throws a readable Error when they are damaged. */
export function decodeEdits(payload: string): StepEdit[] {
  let value: unknown;
  try {
    value = JSON.parse(decodeSmallPayload(payload));
  } catch (e) {
    throw new Error(`the what-if edits in this link are damaged: ${(e as Error).message}`);
  }
  const ok = (e: unknown): e is StepEdit => {
    if (typeof e !== 'object' || e === null) return false;
    const r = e as Record<string, unknown>;
    return (
      Number.isInteger(r.messageIndex) &&
      (r.remove === undefined || typeof r.remove === 'boolean') &&
      (r.insert === undefined || typeof r.insert === 'boolean') &&
      ['name', 'kwargsJson', 'content'].every((k) => r[k] === undefined || typeof r[k] === 'string')
    );
  };
  if (!Array.isArray(value) || !value.every(ok)) throw new Error('the what-if edits in this link are not a list of edits');
  return value.map((e) => ({
    messageIndex: e.messageIndex,
    ...(e.remove !== undefined && { remove: e.remove }),
    ...(e.insert !== undefined && { insert: e.insert }),
    ...(e.name !== undefined && { name: e.name }),
    ...(e.kwargsJson !== undefined && { kwargsJson: e.kwargsJson }),
    ...(e.content !== undefined && { content: e.content }),
  }));
}
