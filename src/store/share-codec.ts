import { deflateSync, Inflate, strFromU8, strToU8 } from 'fflate';

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
