/**
 * JSON text that is exact and inert: `JSON.parse` gives back every string as it was, and no
 * character in it can steer a terminal or reorder a line. `JSON.stringify` already escapes C0
 * controls (and lone surrogates); this also writes DEL, the C1 controls (U+0080–U+009F: U+009B is
 * CSI in some terminals), the bidi controls (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069) and the
 * line and paragraph separators (U+2028/9) as `\uXXXX`. Those characters only ever occur inside
 * string literals of JSON text, so the escape is always valid there. Every JSON the CLI prints or
 * writes and every JSON the app exports (notes, links) is made by this function.
 */
const NOT_INERT = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const escape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Escapes the characters above in JSON text (text made by `JSON.stringify` or any other JSON writer). */
export const inertJsonText = (json: string): string => json.replace(NOT_INERT, escape);

/** `JSON.stringify(value, null, space)`, inert (see above). */
export function inertJson(value: unknown, space?: number): string {
  return inertJsonText(JSON.stringify(value, null, space));
}
