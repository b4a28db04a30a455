import { decodePayload, encodePayload, PayloadError } from '../formats/share-codec';
import type { ShareContext } from '../protocol/share-context';
import { inertJson } from '../core/contract';
import type { EpisodeAddress } from '../protocol/wire-types';
import { post } from './post';

/**
 * One episode carried in a link (`#ep=`). Both ways run in the worker, never on the page's thread:
 * `sharePayload` writes it for `share-link` (the episode's text never goes to the page to be
 * deflated), `decodeSharedEpisode` reads it back for a link opened (a bounded inflate,
 * src/formats/share-codec.ts).
 *
 * Version 2 of the payload is an envelope around the episode. Its deflated text is
 *
 *     tau-inspect-share/2\n<context as one line of JSON>\n<the episode's JSON text>
 *
 * The episode stays the exact text `episodeJson` wrote (Python's number types intact), so it is
 * not nested inside another JSON value. Version 1 links carry the episode's JSON alone; they start
 * with `{` and still open.
 */
export const SHARE_MAGIC = 'tau-inspect-share/2\n';

export const MAX_SHARED_JSON_BYTES = 64 * 1024 * 1024;
/** A fragment longer than this is not a link this app wrote (browsers cap URLs well below it). */
export const MAX_SHARED_PAYLOAD = 16 * 1024 * 1024;

export const shareText = (episodeJson: string, ctx: ShareContext): string => `${SHARE_MAGIC}${inertJson({ v: 2, ...ctx })}\n${episodeJson}`;

/** The `ep=` payload of an episode shared with its context. */
export const sharePayload = (episodeJson: string, ctx: ShareContext): string => encodePayload(shareText(episodeJson, ctx));

const damaged = (why: string): Error => new Error(`the episode in this link is damaged (${why})`);

/**
 * Splits a decoded payload into the episode's text and, for a version 2 envelope, its context
 * line (untrusted JSON, read by `readShareContext`). A version 1 payload is the episode alone.
 */
export function splitSharedText(text: string): { episode: string; context: string | null } {
  if (!text.startsWith(SHARE_MAGIC)) return { episode: text, context: null };
  const end = text.indexOf('\n', SHARE_MAGIC.length);
  if (end < 0) throw damaged('its envelope has no episode after the context line');
  return { episode: text.slice(end + 1), context: text.slice(SHARE_MAGIC.length, end) };
}

export function decodeSharedEpisode(payload: string, maxBytes = MAX_SHARED_JSON_BYTES): string {
  try {
    return decodePayload(payload, { maxChars: MAX_SHARED_PAYLOAD, maxBytes });
  } catch (e) {
    if (!(e instanceof PayloadError)) throw e;
    if (e.problem === 'too-long') throw damaged(`${e.message}, more than a shared episode can be`);
    if (e.problem === 'too-big') throw damaged(`${e.message}, far more than one episode; it was not made by this app`);
    throw damaged(e.message);
  }
}

/** Answers `share-link`: the payload of the text `write` makes (an episode's, a τ² simulation's) with its context, and that text as a file. */
export function postShareLink({ run, episode }: EpisodeAddress, context: ShareContext, write: () => string, what: string): void {
  let json: string;
  try {
    json = write();
  } catch {
    post({ type: 'share-link', run, episode, payload: null, file: null, error: `this ${what} could not be written out` });
    return;
  }
  post({ type: 'share-link', run, episode, payload: sharePayload(json, context), file: new Blob([json], { type: 'application/json' }), error: null });
}
