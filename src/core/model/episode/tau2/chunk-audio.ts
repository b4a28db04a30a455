/**
 * What τ²'s `merge_message_chunks` does with the audio of the chunks it merges, where it can raise: the audio
 * formats compared, every chunk's base64 audio decoded, the `audio_script_gold` strings merged. tau-inspect keeps no
 * merged audio (no verdict reads it); only whether the merge raises, and with what, matters: a raise ends τ²'s
 * evaluation of the simulation (evaluate-trajs stops at it), so the simulation gets no verdict.
 */
import { PyException } from '../../../py/errors';
import { intFromStr } from '../../../py/int-parse';
import type { TDict, TValue } from '../../../py/pydantic';
import type { Tau2Chunk } from './types';

const B64 = /[A-Za-z0-9+/]/;

/** Python's repr of one character inside an encode error (`'\xe9'`, `'\u20ac'`, `'\U0001f600'`). */
const charRepr = (cp: number): string =>
  cp < 0x100 ? `\\x${cp.toString(16).padStart(2, '0')}` : cp < 0x10000 ? `\\u${cp.toString(16).padStart(4, '0')}` : `\\U${cp.toString(16).padStart(8, '0')}`;

// Python parity: str.encode('ascii') — the first run of non-ASCII characters named, positions in code points.
function asciiCheck(s: string): void {
  const cps = [...s].map((c) => c.codePointAt(0)!);
  const start = cps.findIndex((c) => c > 127);
  if (start < 0) return;
  let end = start;
  while (end + 1 < cps.length && cps[end + 1]! > 127) end++;
  throw new PyException(
    'UnicodeEncodeError',
    start === end
      ? `'ascii' codec can't encode character '${charRepr(cps[start]!)}' in position ${start}: ordinal not in range(128)`
      : `'ascii' codec can't encode characters in position ${start}-${end}: ordinal not in range(128)`,
  );
}

/** Raises as `base64.b64decode(s.encode("ascii"))` raises (nothing is decoded: only the verdict of the decode matters). */
// Python parity: binascii.a2b_base64 with strict_mode=False (CPython 3.11) — characters outside the alphabet skipped,
// a '=' ends the data once a quad holds two or more characters and its padding is complete, a data character resets
// the padding count; a last quad of one character, or of two or three without their padding, is an error.
export function b64decodeCheck(s: string): void {
  asciiCheck(s);
  let quad = 0;
  let pads = 0;
  let chars = 0;
  for (const ch of s) {
    if (ch === '=') {
      if (quad >= 2 && quad + ++pads >= 4) return;
      continue;
    }
    if (!B64.test(ch)) continue;
    pads = 0;
    quad = (quad + 1) % 4;
    chars++;
  }
  if (quad === 1) throw new PyException('Error', `Invalid base64-encoded string: number of data characters (${chars}) cannot be 1 more than a multiple of 4`);
  if (quad !== 0) throw new PyException('Error', 'Incorrect padding');
}

const str = (v: TValue | undefined): string | null => (typeof v === 'string' ? v : null);

/** An `AudioFormat` as `==` compares it (defaults filled: ulaw, 8000 Hz, mono), null for None. */
function formatKey(v: TValue | undefined): string | null {
  if (!(v instanceof Map)) return null;
  const f = v as TDict;
  const num = (x: TValue | undefined, dflt: number): number =>
    typeof x === 'bigint' || typeof x === 'number' ? Number(x) : typeof x === 'string' && Number.isFinite(Number(x)) ? Number(x) : dflt;
  const encoding = str(f.get('encoding')) ?? 'ulaw';
  // str(AudioFormat): "<encoding>, <rate> Hz, <bits>-bit, mono|stereo" (8 bits for the companded and pcm_u8 encodings).
  const bits = 8 * ({ pcm_s16le: 2, pcm_s24le: 3, pcm_s32le: 4 }[encoding] ?? 1);
  return `${encoding}, ${num(f.get('sample_rate'), 8000)} Hz, ${bits}-bit, ${num(f.get('channels'), 1) === 1 ? 'mono' : 'stereo'}`;
}

// Python parity: streaming_utils.merge_audio_script_gold — only what raises: the `active="…"` list of each script
// whose `<message uuid="…"` is found, every non-empty item read with int().
function scriptGoldCheck(golds: readonly (string | null)[]): void {
  for (const g of golds) {
    if (!g || !/<message uuid="[^"]+"/.test(g)) continue;
    const active = /active="([^"]+)"/.exec(g);
    if (active) for (const x of active[1]!.split(',')) if (x !== '') intFromStr(x);
  }
}

/** Raises where `merge_message_chunks` raises on the audio of `chunks` (a group of two or more, same is_audio flag). */
// Python parity: merge_message_chunks (data_model/message.py) — its audio part, which runs when any chunk has
// audio_content: formats compared (each chunk with audio), each audio_content decoded, the script golds merged.
export function mergeAudioCheck(chunks: readonly Tau2Chunk[]): void {
  const withAudio = chunks.filter((c) => (str(c.raw.get('audio_content')) ?? '') !== '');
  if (withAudio.length === 0) return;
  const formats = withAudio.map((c) => formatKey(c.raw.get('audio_format')));
  if (formats.some((f) => f !== formats[0])) {
    // τ² prints a set of the formats (its order is the str hash's, which varies run to run): here in first-seen order.
    const seen = [...new Set(formats)].map((f) => (f === null ? "'None'" : `'${f}'`));
    throw new PyException('ValueError', `All audio chunks must have the same audio format. Found formats: {${seen.join(', ')}}`);
  }
  for (const c of withAudio) b64decodeCheck(str(c.raw.get('audio_content'))!);
  scriptGoldCheck(chunks.map((c) => str(c.raw.get('audio_script_gold'))));
}
