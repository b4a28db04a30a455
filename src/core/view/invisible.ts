/**
 * Characters that are invisible or change the direction of the text around them (C0/C1 controls
 * other than tab, line feed and carriage return; zero-width characters; bidi marks, embeddings,
 * overrides and isolates; BOM). Untrusted text shows them as visible `U+XXXX` marks instead — in the
 * app and in the HTML reports alike — so a name or a message cannot reorder or hide what is displayed.
 */
export const INVISIBLE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** `U+202E` for the character U+202E (every character INVISIBLE matches is in the BMP). */
export const codePointName = (c: string): string => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
