/** Where a communicate info sits in a text, as τ²'s check finds it. */
import { pyLower } from '../../py/lower';
import type { Span } from '../../env/output-match';

/**
 * Where `info` sits in a message's text as τ²'s check finds it (lower-cased, commas removed), mapped
 * back to the original text; null when it is not there.
 */
export function communicateSpan(content: string, info: string): Span | null {
  const needle = pyLower(info);
  let hay = '';
  const from: number[] = [];
  for (let i = 0; i < content.length;) {
    const cp = content.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    const low = ch === ',' ? '' : pyLower(ch);
    for (let k = 0; k < low.length; k++) from.push(i);
    hay += low;
    i += ch.length;
  }
  from.push(content.length);
  const at = hay.indexOf(needle);
  if (at < 0 || needle.length === 0) return null;
  const last = from[at + needle.length - 1]!;
  return { start: from[at]!, end: last + (content.codePointAt(last)! > 0xffff ? 2 : 1) };
}
