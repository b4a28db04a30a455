import { deflateSync, Inflate } from 'fflate';

/**
 * Text carried in a link: raw deflate, then base64url (no padding). One codec for the page (what-if
 * edits in `whatif=`) and the worker (a whole episode in `#ep=`). The way back inflates in small
 * steps with a cap on the output, so a tampered, truncated or "decompression bomb" fragment ends in
 * a clear message instead of a hung tab.
 */
export function encodePayload(text: string): string {
  const bytes = deflateSync(new TextEncoder().encode(text), { level: 9 });
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** What is wrong with a payload; `message` says it in a few words ("it ends early; …"). */
export type PayloadProblem = 'too-long' | 'characters' | 'base64' | 'too-big' | 'inflate' | 'truncated' | 'utf8';

export class PayloadError extends Error {
  constructor(
    readonly problem: PayloadProblem,
    message: string,
  ) {
    super(message);
    this.name = 'PayloadError';
  }
}

export interface PayloadLimits {
  /** The longest payload accepted (characters of base64url). */
  readonly maxChars: number;
  /** The most bytes it may inflate to. */
  readonly maxBytes: number;
}

const B64URL = /^[A-Za-z0-9_-]*$/;
const STEP = 4096;

const size = (bytes: number): string => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${bytes} bytes`);

/** The text back from `encodePayload`'s output; throws a `PayloadError` when it is damaged or too big. */
export function decodePayload(payload: string, limits: PayloadLimits): string {
  if (payload.length > limits.maxChars) throw new PayloadError('too-long', `it is ${payload.length.toLocaleString('en-US')} characters long`);
  if (!B64URL.test(payload)) throw new PayloadError('characters', 'unexpected characters');
  let bin: string;
  try {
    bin = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    throw new PayloadError('base64', 'it is not base64url; the link may have been cut short or edited');
  }
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);

  const out: Uint8Array[] = [];
  let total = 0;
  let ended = false;
  const tooBig = new PayloadError('too-big', `it inflates to more than ${size(limits.maxBytes)}`);
  const inflate = new Inflate((chunk, final) => {
    total += chunk.byteLength;
    if (total > limits.maxBytes) throw tooBig;
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
    throw new PayloadError('inflate', 'it does not decompress; the link may have been cut short');
  }
  if (!ended) throw new PayloadError('truncated', 'it ends early; the link may have been cut short');
  const all = new Uint8Array(total);
  let at = 0;
  for (const c of out) {
    all.set(c, at);
    at += c.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(all);
  } catch {
    throw new PayloadError('utf8', 'it is not UTF-8 text');
  }
}
