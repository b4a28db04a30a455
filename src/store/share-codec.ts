import { deflateSync, Inflate, strFromU8, strToU8 } from 'fflate';
import { NOTES_FORMAT, parseNotesExport, SHARE_MAGIC, type EpisodeNotes, type StepEdit } from '../core/contract';

/**
 * An episode's JSON text as a compact, URL-safe string (raw deflate, base64url). The way back is
 * `decodeSharedEpisode` in src/worker/shared-episode.ts: it runs in the worker with a bounded
 * inflate, so a tampered link cannot hang the page.
 */
export function encodeEpisode(json: string): string {
  const bytes = deflateSync(strToU8(json), { level: 9 });
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The way back for small payloads decoded on the page (what-if edits in a link): raw inflate
 * in steps, stopped past `maxBytes`, so a tampered link cannot make the page inflate a bomb.
 * (Whole episodes are decoded in the worker by src/worker/shared-episode.ts, same scheme.)
 */
export function decodeSmallPayload(payload: string, maxBytes = 1024 * 1024): string {
  if (!/^[A-Za-z0-9_-]*$/.test(payload) || payload.length > maxBytes) throw new Error('not a payload this app wrote');
  const bin = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const out: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  const inflate = new Inflate((chunk, final) => {
    size += chunk.byteLength;
    if (size > maxBytes) throw new Error(`it inflates to more than ${maxBytes} bytes`);
    out.push(chunk);
    if (final) ended = true;
  });
  for (let at = 0; at < bytes.length; at += 4096) inflate.push(bytes.subarray(at, at + 4096), at + 4096 >= bytes.length);
  if (!ended) throw new Error('it ends early; the link may have been cut short');
  return strFromU8(out.length === 1 ? out[0]! : concat(out, size));
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}

/**
 * Version 2 of the `#ep=` payload: an envelope around the episode. Its deflated text is
 *
 *     tau-inspect-share/2\n<context as one line of JSON>\n<the episode's JSON text>
 *
 * The episode stays the exact text `episodeJson` wrote (Python's number types intact), so it is
 * not nested inside another JSON value. Version 1 links carry the episode's JSON alone; they start
 * with `{` and still open. The worker splits the two (src/worker/shared-episode.ts,
 * `splitSharedText`) and hands the context line to the page, which reads it with `readShareContext`.
 * The first line is `SHARE_MAGIC` (src/core/contract.ts, shared by both).
 */

/** What a shared link keeps of the place it was made in (every field is untrusted on the way back). */
export interface ShareContext {
  /** The results file the episode came from (its name or URL), as text. */
  readonly file: string | null;
  /** The episode's index in that file. */
  readonly index: number | null;
  readonly step: number;
  /** The episode's notes and label where it was shared (its fingerprint is the episode's). */
  readonly notes: EpisodeNotes | null;
  readonly edits: readonly StepEdit[];
}

export const shareText = (episodeJson: string, ctx: ShareContext): string => `${SHARE_MAGIC}${JSON.stringify({ v: 2, ...ctx })}\n${episodeJson}`;

const nat = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null);
/** Longer file names are cut: the name is only shown. */
const MAX_FILE_NAME = 1000;

/** The context line of a version 2 link, checked field by field; what is damaged is dropped with a reason. */
export function readShareContext(line: string): { ctx: ShareContext; problems: string[] } {
  const problems: string[] = [];
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return { ctx: { file: null, index: null, step: 0, notes: null, edits: [] }, problems: ['its context (file name, notes, edits) is not JSON'] };
  }
  const o = typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  let notes: EpisodeNotes | null = null;
  if (o.notes !== undefined && o.notes !== null) {
    const parsed = parseNotesExport(JSON.stringify({ format: NOTES_FORMAT, version: 1, episodes: [o.notes] }));
    if (parsed.ok) notes = parsed.value.episodes[0] ?? null;
    else problems.push(`its notes were left out (${parsed.error.replace(/^this notes export is damaged: episodes\[0\]/, 'the note')})`);
  }
  let edits: StepEdit[] = [];
  if (o.edits !== undefined) {
    const e = readEdits(o.edits);
    if (e === null) problems.push('its what-if edits are not a list of edits and were left out');
    else edits = e;
  }
  return {
    ctx: { file: typeof o.file === 'string' ? o.file.slice(0, MAX_FILE_NAME) : null, index: nat(o.index), step: nat(o.step) ?? 0, notes, edits },
    problems,
  };
}

/** What-if edits from untrusted JSON; null when it is not a list of edits. */
export function readEdits(value: unknown): StepEdit[] | null {
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
  if (!Array.isArray(value) || !value.every(ok)) return null;
  return value.map((e) => ({
    messageIndex: e.messageIndex,
    ...(e.remove !== undefined && { remove: e.remove }),
    ...(e.insert !== undefined && { insert: e.insert }),
    ...(e.name !== undefined && { name: e.name }),
    ...(e.kwargsJson !== undefined && { kwargsJson: e.kwargsJson }),
    ...(e.content !== undefined && { content: e.content }),
  }));
}

/**
 * The longest link "Share episode" copies. Browsers take far longer URLs (Chromium 2 MB), but a
 * link is only useful if it survives where people paste it: a Slack message holds 40,000
 * characters, a Teams message about 28,000, a GitHub comment 65,536, and several mail clients
 * and URL shorteners cut or refuse links past 32 KB. 32,000 characters fits the common ones with
 * room for a sentence around it; past that the app offers the episode file instead.
 */
export const MAX_LINK_CHARS = 32_000;
