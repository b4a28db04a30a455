import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';

const B64URL = /^[A-Za-z0-9_-]*$/;

/** An episode's JSON text as a compact, URL-safe string (raw deflate, base64url). */
export function encodeEpisode(json: string): string {
  const bytes = deflateSync(strToU8(json), { level: 9 });
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The JSON text back; throws a readable Error for a damaged link. */
export function decodeEpisode(payload: string): string {
  if (!B64URL.test(payload)) throw new Error('the episode in this link is damaged (unexpected characters)');
  try {
    const bin = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return strFromU8(inflateSync(bytes));
  } catch {
    throw new Error('the episode in this link is damaged (it does not decompress); the link may have been cut short');
  }
}
