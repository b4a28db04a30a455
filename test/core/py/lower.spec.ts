import { describe, expect, it } from 'vitest';
import specialCasing from '@unicode/unicode-14.0.0/Special_Casing/Lowercase/code-points.mjs';
import simpleLower from '@unicode/unicode-14.0.0/Simple_Case_Mapping/Lowercase/code-points.mjs';
import { lowerLength, pyLower, pyLowerWithoutChunks } from '../../../src/core/py/lower';

interface Case {
  readonly input: string;
  /** CPython 3.11.7's `input.lower()`, produced once with python3 and written down here. */
  readonly expected: string;
  readonly note: string;
}

// Final_Sigma contexts and full mappings; expected values are CPython 3.11.7's.
const CASES: readonly Case[] = [
  { input: 'ΟΔΥΣΣΕΥΣ', expected: 'οδυσσευς', note: 'word-final Σ only' },
  { input: 'Σ', expected: 'σ', note: 'isolated Σ' },
  { input: 'ΣΑ', expected: 'σα', note: 'Σ at the start' },
  { input: 'ΑΣΑ', expected: 'ασα', note: 'Σ between letters' },
  { input: 'ΑΣ', expected: 'ας', note: 'Σ at the end' },
  { input: 'ΑΣ ΒΓ', expected: 'ας βγ', note: 'Σ before a space' },
  { input: 'ΣΣ', expected: 'σς', note: 'first Σ has nothing cased before' },
  { input: 'ΑΣΣ', expected: 'ασς', note: 'Σ before Σ' },
  { input: "ΑΣ'", expected: "ας'", note: 'apostrophe (case-ignorable) after, then the end' },
  { input: "ΑΣ'Α", expected: "ασ'α", note: 'apostrophe between Σ and a letter' },
  { input: "Α'Σ", expected: "α'ς", note: 'apostrophe between a letter and Σ' },
  { input: "'Σ", expected: "'σ", note: 'only case-ignorable before' },
  { input: 'ΑΣ\u2019Α', expected: 'ασ\u2019α', note: 'right single quote (MidNumLet) is case-ignorable' },
  { input: 'ΑΣ.Α', expected: 'ασ.α', note: 'full stop (MidNumLet) is case-ignorable' },
  { input: 'Α:Σ', expected: 'α:ς', note: 'colon (MidLetter) is case-ignorable' },
  { input: 'ΑΣ,', expected: 'ας,', note: 'comma (MidNum) is not case-ignorable' },
  { input: 'ΑΣ,Α', expected: 'ας,α', note: 'comma ends the word' },
  { input: 'ΟΔΥΣΣΕΥΣ, ΟΔΥΣΣΕΥΣ', expected: 'οδυσσευς, οδυσσευς', note: 'Σ before a comma' },
  { input: 'Α\u0301Σ', expected: 'α\u0301ς', note: 'combining acute before' },
  { input: 'ΑΣ\u0301', expected: 'ας\u0301', note: 'combining acute after, then the end' },
  { input: 'ΑΣ\u0301Α', expected: 'ασ\u0301α', note: 'combining acute between Σ and a letter' },
  { input: 'Α\u00adΣ', expected: 'α\u00adς', note: 'soft hyphen (Cf) is case-ignorable' },
  { input: 'Α\u200dΣ', expected: 'α\u200dς', note: 'ZWJ before' },
  { input: 'ΑΣ\u200dΑ', expected: 'ασ\u200dα', note: 'ZWJ between Σ and a letter' },
  { input: '\u02b0Σ', expected: '\u02b0σ', note: 'ʰ is Cased and case-ignorable: skipped, nothing before' },
  { input: 'Α\u02b0Σ', expected: 'α\u02b0ς', note: 'ʰ skipped back to Α' },
  { input: 'Σ\u02b0Α', expected: 'σ\u02b0α', note: 'ʰ skipped forward to Α' },
  { input: '\u0345Σ', expected: '\u0345σ', note: 'U+0345 (Cased, case-ignorable) alone before' },
  { input: 'ΑΣ\u0345', expected: 'ας\u0345', note: 'U+0345 alone after' },
  { input: '1Σ', expected: '1σ', note: 'digit is not cased' },
  { input: 'ΑΣ1', expected: 'ας1', note: 'digit after ends the word' },
  { input: 'ǅΣ', expected: 'ǆς', note: 'titlecase letter before' },
  { input: '\u{10400}Σ', expected: '\u{10428}ς', note: 'astral cased letter before (Deseret)' },
  { input: 'Α\u{1d167}Σ', expected: 'α\u{1d167}ς', note: 'astral combining mark before' },
  { input: 'ΑΣ\u{1d167}Α', expected: 'ασ\u{1d167}α', note: 'astral combining mark between Σ and a letter' },
  { input: 'İ', expected: 'i\u0307', note: 'full mapping: two code points' },
  { input: 'İΣ', expected: 'i\u0307ς', note: 'İ is cased' },
  { input: '\ua7cb', expected: '\ua7cb', note: 'U+A7CB: unassigned in Unicode 14, stays' },
  { input: '\ua7cbΣ', expected: '\ua7cbσ', note: 'U+A7CB is not Cased in Unicode 14' },
  { input: '\ud800Σ', expected: '\ud800σ', note: 'lone surrogate before' },
  { input: 'Α\ud800Σ', expected: 'α\ud800σ', note: 'lone surrogate is neither cased nor case-ignorable' },
  { input: `${'X'.repeat(300)}Σ ${'Y'.repeat(300)}`, expected: `${'x'.repeat(300)}ς ${'y'.repeat(300)}`, note: 'long ASCII runs around Σ' },
];

const units = (cp: number): number => (cp > 0xffff ? 2 : 1);

describe('pyLower (CPython 3.11 str.lower)', () => {
  it('lower-cases every code point by Unicode 14 (SpecialCasing unconditional, else simple)', () => {
    // Read from @unicode/unicode-14.0.0 here, independently of src/core/py/lowercase-table.ts.
    const expectedOf = (cp: number): readonly number[] => specialCasing.get(cp) ?? [simpleLower.get(cp) ?? cp];
    const wrong: string[] = [];
    const shorter: number[] = [];
    for (let cp = 0; cp < 0x110000; cp++) {
      const ch = String.fromCodePoint(cp);
      const want = expectedOf(cp);
      const got = pyLower(ch);
      if (got !== String.fromCodePoint(...want)) wrong.push(`U+${cp.toString(16)}: ${JSON.stringify(got)}`);
      const len = want.reduce((n, c) => n + units(c), 0);
      if (lowerLength(cp) !== len) wrong.push(`U+${cp.toString(16)} length ${lowerLength(cp)} != ${len}`);
      if (len < units(cp)) shorter.push(cp);
      if (cp !== 0x2c && want.includes(0x2c)) wrong.push(`U+${cp.toString(16)} lower-cases to a comma`);
    }
    expect(wrong).toEqual([]);
    // output-match's fast path (same length ⇒ same offsets) relies on this.
    expect(shorter).toEqual([]);
  });

  it('applies Final_Sigma and full mappings as CPython does', () => {
    const got = CASES.map((c) => ({ note: c.note, lower: pyLower(c.input), without: pyLowerWithoutChunks(c.input, ',').join('') }));
    expect(got).toEqual(CASES.map((c) => ({ note: c.note, lower: c.expected, without: c.expected.replaceAll(',', '') })));
  });
});
