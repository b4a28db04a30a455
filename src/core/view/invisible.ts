/**
 * Characters that are invisible or change the direction of the text around them (C0/C1 controls
 * other than tab, line feed and carriage return; zero-width characters; bidi marks, embeddings,
 * overrides and isolates; the deprecated format controls U+206A–206F; the interlinear annotation marks
 * U+FFF9–FFFB; BOM; the Hangul fillers, blank letters; and beyond the BMP the shorthand format controls
 * U+1BCA0–1BCA3, the musical format controls U+1D173–1D17A and the tag characters U+E0000–E007F, with which
 * text can be hidden letter by letter). Untrusted text shows them as visible `U+XXXX` marks instead — in the
 * app and in the HTML reports alike — so a name or a message cannot reorder or hide what is displayed.
 * Written without the `u` flag (its users build other expressions from its source): a character beyond the
 * BMP is matched as its surrogate pair, so a match may be two code units long.
 */
export const INVISIBLE =
  /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]|\ud82f[\udca0-\udca3]|\ud834[\udd73-\udd7a]|\udb40[\udc00-\udc7f]/g;

/** `U+202E` for the character U+202E, `U+E0041` for a tag character (a match of INVISIBLE). */
export const codePointName = (c: string): string => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
