import { Inflate } from 'fflate';
import { SHARE_MAGIC } from '../core/contract';

/**
 * Decoding an episode carried in a link (`#ep=`, written by `encodeEpisode` in
 * src/store/share-codec.ts: raw deflate, base64url). It runs in the worker, never on the page's
 * thread, and inflates in small steps with a cap on the output, so a tampered, truncated or
 * "decompression bomb" fragment ends in a clear message instead of a hung tab.
 */
export const MAX_SHARED_JSON_BYTES = 64 * 1024 * 1024;
/** A fragment longer than this is not a link this app wrote (browsers cap URLs well below it). */
export const MAX_SHARED_PAYLOAD = 16 * 1024 * 1024;


/**
 * Splits a decoded payload into the episode's text and, for a version 2 envelope, its context
 * line (JSON, read and checked on the page). A version 1 payload is the episode alone.
 */
export function splitSharedText(text: string): { episode: string; context: string | null } {
  if (!text.startsWith(SHARE_MAGIC)) return { episode: text, context: null };
  const end = text.indexOf('\n', SHARE_MAGIC.length);
  if (end < 0) throw damaged('its envelope has no episode after the context line');
  return { episode: text.slice(end + 1), context: text.slice(SHARE_MAGIC.length, end) };
}

const B64URL = /^[A-Za-z0-9_-]*$/;
const STEP = 4096;

const damaged = (why: string): Error => new Error(`the episode in this link is damaged (${why})`);

export function decodeSharedEpisode(payload: string, maxBytes = MAX_SHARED_JSON_BYTES): string {
  if (payload.length > MAX_SHARED_PAYLOAD) throw damaged(`it is ${payload.length.toLocaleString('en-US')} characters long, more than a shared episode can be`);
  if (!B64URL.test(payload)) throw damaged('unexpected characters');
  let bin: string;
  try {
    bin = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    throw damaged('it is not base64url; the link may have been cut short or edited');
  }
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);

  const out: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  const tooBig = damaged(`it inflates to more than ${maxBytes / 1024 / 1024} MB, far more than one episode; it was not made by this app`);
  const inflate = new Inflate((chunk, final) => {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooBig;
    out.push(chunk);
    if (final) ended = true;
  });
  try {
    for (let at = 0; at < bytes.length || at === 0; at += STEP) {
      const last = at + STEP >= bytes.length;
      inflate.push(bytes.subarray(at, at + STEP), last);
      if (last) break;
    }
  } catch (e) {
    if (e === tooBig) throw tooBig;
    throw damaged('it does not decompress; the link may have been cut short');
  }
  if (!ended) throw damaged('it ends early; the link may have been cut short');
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of out) {
    all.set(c, at);
    at += c.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(all);
  } catch {
    throw damaged('it is not UTF-8 text');
  }
}
