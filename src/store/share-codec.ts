import { deflateSync, strToU8 } from 'fflate';

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
