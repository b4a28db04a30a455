import { describe, expect, it } from 'vitest';
import { ChunkedText, matchOutput, OutputHaystack } from '../../../src/core/env/output-match';
import { pyLowerWithoutChunks } from '../../../src/core/py/lower';
import { bigMessageCase } from './big-message.cases';

interface Case {
  readonly note: string;
  readonly content: string;
  readonly output: string;
  /** The original text the match covers; null when τ-bench does not find the output. */
  readonly covers: string | null;
  /** Start offset, when the covered text alone would be ambiguous. */
  readonly start?: number;
}

// Found / not found as CPython 3.11.7 decides `output.lower() in content.lower().replace(",", "")`.
const CASES: readonly Case[] = [
  { note: 'plain, case-insensitive', content: 'Your total is 45 USD.', output: '45 usd', covers: '45 USD' },
  { note: 'comma inside the match', content: 'The refund is 1,234.50 dollars.', output: '1234.50', covers: '1,234.50' },
  { note: 'several commas inside the match', content: 'Codes: A,B,,C done', output: 'abc', covers: 'A,B,,C' },
  { note: 'match starts right after a comma', content: 'x,,yz', output: 'yz', covers: 'yz', start: 3 },
  { note: 'match ends right before a comma', content: 'ab,c', output: 'ab', covers: 'ab', start: 0 },
  { note: 'not found', content: 'Nothing here.', output: 'something', covers: null },
  { note: 'word-final Σ before a comma stays ς', content: 'ΟΔΥΣΣΕΥΣ, welcome', output: 'ΟΔΥΣΣΕΥΣ', covers: 'ΟΔΥΣΣΕΥΣ' },
  { note: 'ς across the removed comma', content: 'ΟΔΥΣΣΕΥΣ, welcome', output: 'οδυσσευς welcome', covers: 'ΟΔΥΣΣΕΥΣ, welcome' },
  { note: 'non-final σ is not found before a comma', content: 'ΟΔΥΣΣΕΥΣ, welcome', output: 'οδυσσευσ', covers: null },
  { note: 'lower first, then drop commas: ΑΣ,Α is αςα', content: 'ΑΣ,Α', output: 'ΑΣΑ', covers: null },
  { note: 'lower first, then drop commas: final ς matches', content: 'ΑΣ,Α', output: 'αςα', covers: 'ΑΣ,Α' },
  { note: 'İ expands to two units before the match', content: 'İstanbul, Türkiye: code ABC', output: 'code abc', covers: 'code ABC' },
  { note: 'match on İ itself', content: 'İstanbul, Türkiye', output: 'İSTANBUL', covers: 'İstanbul', start: 0 },
  { note: 'match from the middle of İ’s expansion', content: 'İstanbul', output: '\u0307stanbul', covers: 'İstanbul', start: 0 },
  { note: 'match ending inside İ’s expansion', content: 'xİy', output: 'xi', covers: 'xİ', start: 0 },
  { note: 'several İ and commas before the match', content: 'İ,İ,İ, ok,ay', output: 'okay', covers: 'ok,ay', start: 7 },
  { note: 'astral letters lower-cased', content: 'Hello 𐐀𐐁, X', output: '𐐨𐐩 x', covers: '𐐀𐐁, X' },
  { note: 'astral before the match', content: '😀😀, Confirmed', output: 'confirmed', covers: 'Confirmed' },
  { note: 'emoji with a comma inside the match', content: 'Ticket 😀, OK', output: '😀 ok', covers: '😀, OK' },
  { note: 'half of a surrogate pair does not match', content: 'a😀b', output: '\ude00b', covers: null },
  { note: 'empty output is in every text', content: 'Anything, at all', output: '', covers: '', start: 0 },
  { note: 'empty output, empty text', content: '', output: '', covers: '', start: 0 },
  { note: 'commas only', content: ',,,', output: '', covers: '', start: 0 },
];

describe('matchOutput (τ-bench outputs check)', () => {
  it('finds outputs as τ-bench does and maps the match back to the original text', () => {
    const got = CASES.map((c) => {
      const span = matchOutput(c.output, c.content);
      return { note: c.note, covers: span ? c.content.slice(span.start, span.end) : null, ...(c.start !== undefined && span ? { start: span.start } : {}) };
    });
    expect(got).toEqual(CASES.map((c) => ({ note: c.note, covers: c.covers, ...(c.start !== undefined && c.covers !== null ? { start: c.start } : {}) })));
  });

  it('checks several outputs against one prepared text', () => {
    const hay = new OutputHaystack('Booked: ΑΘΗΝΑ, 1,200 EUR; İzmir next.');
    expect(['αθηνα 1200', '1200 eur', 'i̇zmir', 'paris'].map((o) => hay.find(o))).toEqual(
      ['αθηνα 1200', '1200 eur', 'i̇zmir', 'paris'].map((o) => matchOutput(o, hay.content)),
    );
    expect(hay.find('1200 eur')).toEqual({ start: 15, end: 24 });
  });

  // ~20 MB in the soak (test/soak/output-match.spec.ts).
  bigMessageCase(2_000_000);

  it('searches chunked text like one string, across chunk boundaries', () => {
    const chunks = ['ab', 'c', '', 'defg', 'h', 'abc'];
    const whole = chunks.join('');
    const text = new ChunkedText(chunks);
    const wrong: string[] = [];
    for (let i = 0; i < whole.length; i++)
      for (let j = i + 1; j <= whole.length; j++)
        for (let from = 0; from <= whole.length; from++) {
          const needle = whole.slice(i, j);
          if (text.indexOf(needle, from) !== whole.indexOf(needle, from)) wrong.push(`${needle}@${from}`);
        }
    expect(wrong).toEqual([]);
    expect(text.indexOf('xyz')).toBe(-1);
  });

  it('finds outputs that straddle the chunks of a long normalised text', () => {
    const unit = 'Ένα, Δύο ΤΡΙΑ: ABC,DEF; İ 𐐀. ';
    const content = unit.repeat(10_000);
    const hay = new OutputHaystack(content);
    const chunks = pyLowerWithoutChunks(content, ',');
    expect(chunks.length).toBeGreaterThan(2);
    const flat = chunks.join('');
    const wrong: string[] = [];
    let boundary = 0;
    for (const c of chunks.slice(0, -1)) {
      boundary += c.length;
      for (let back = 1; back < 12; back++) {
        const needle = flat.slice(boundary - back, boundary - back + 12);
        if (hay.text().indexOf(needle) !== flat.indexOf(needle)) wrong.push(`${boundary}-${back}`);
        // A needle cut through a surrogate pair is not a substring in Python's code points.
        const cut = /^[\udc00-\udfff]|[\ud800-\udbff]$/.test(needle);
        if ((hay.find(needle) === null) !== cut) wrong.push(`find ${boundary}-${back}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
