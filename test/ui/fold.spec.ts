import { describe, expect, it } from 'vitest';
import { blockCuts, breakRuns, clip, foldWindow, hitPieces, markPieces, nextCut, safeCut, safeLabel, splitInvisible, utf8Length } from '../../src/ui/fold';

describe('folding long text', () => {
  it('shows short text whole and long text from the start', () => {
    expect(foldWindow('abc', null, 10)).toEqual({ start: 0, end: 3 });
    expect(foldWindow('x'.repeat(25), null, 10)).toEqual({ start: 0, end: 10 });
    expect(foldWindow('x'.repeat(25), { start: 2, end: 9 }, 10)).toEqual({ start: 0, end: 10 });
  });

  it('centres the window on a highlight beyond the first part, within the text', () => {
    const t = 'x'.repeat(1000);
    expect(foldWindow(t, { start: 500, end: 504 }, 100)).toEqual({ start: 452, end: 552 });
    expect(foldWindow(t, { start: 990, end: 1000 }, 100)).toEqual({ start: 900, end: 1000 });
    // A highlight longer than the window: its start is shown.
    expect(foldWindow(t, { start: 300, end: 800 }, 100)).toEqual({ start: 300, end: 400 });
    // Out-of-range spans are clamped, never thrown on.
    expect(foldWindow(t, { start: 5000, end: 6000 }, 100)).toEqual({ start: 900, end: 1000 });
  });

  it('never cuts a surrogate pair', () => {
    const t = `${'a'.repeat(9)}😀${'b'.repeat(20)}`;
    expect(safeCut(t, 10)).toBe(9);
    expect(foldWindow(t, null, 10)).toEqual({ start: 0, end: 9 });
    for (const piece of breakRuns('😀'.repeat(100), 7)) expect(piece).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
    expect(clip(`${'a'.repeat(4)}😀`, 5)).toBe('aaaa…');
    expect(clip(`${'a'.repeat(3)}😀b`, 5)).toBe('aaa…');
  });

  it('cuts reveal blocks at line ends when one is near, else at the size', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
    const cut = nextCut(lines, 0, 50);
    expect(lines[cut - 1]).toBe('\n');
    expect(cut).toBeLessThanOrEqual(50);
    expect(cut).toBeGreaterThanOrEqual(25);
    expect(nextCut('y'.repeat(120), 0, 50)).toBe(50);
    expect(nextCut('y'.repeat(120), 100, 50)).toBe(120);
    const cuts = blockCuts('z'.repeat(230), 0, 230, 50);
    expect(cuts).toEqual([0, 50, 100, 150, 200, 230]);
  });

  it('splits a range at the highlight into marked and plain pieces', () => {
    const t = '0123456789';
    expect(markPieces(t, { start: 2, end: 8 }, { start: 4, end: 6 })).toEqual([
      { text: '23', marked: false },
      { text: '45', marked: true },
      { text: '67', marked: false },
    ]);
    expect(markPieces(t, { start: 2, end: 8 }, { start: 0, end: 3 })).toEqual([
      { text: '2', marked: true },
      { text: '34567', marked: false },
    ]);
    expect(markPieces(t, { start: 5, end: 8 }, { start: 0, end: 3 })).toEqual([{ text: '567', marked: false }]);
    expect(markPieces(t, { start: 0, end: 10 }, null)).toEqual([{ text: t, marked: false }]);
  });

  it('cuts a range at every search hit and at the highlight, saying which hit each piece belongs to', () => {
    const t = 'an order, the order, no order';
    const hits = [...t.matchAll(/order/g)].map((m) => ({ start: m.index, end: m.index + 5 }));
    expect(hitPieces(t, { start: 0, end: t.length }, null, hits).map((p) => [p.text, p.hit, p.marked])).toEqual([
      ['an ', -1, false],
      ['order', 0, false],
      [', the ', -1, false],
      ['order', 1, false],
      [', no ', -1, false],
      ['order', 2, false],
    ]);
    // A highlight across a hit's end splits it; hits outside the range are left out; a range cutting a hit keeps its part.
    expect(hitPieces(t, { start: 5, end: 18 }, { start: 6, end: 10 }, hits).map((p) => [p.text, p.hit, p.marked])).toEqual([
      ['d', 0, false],
      ['er', 0, true],
      [', ', -1, true],
      ['the ', -1, false],
      ['orde', 1, false],
    ]);
  });

  it('gives long unbroken runs break points and leaves ordinary text whole', () => {
    const prose = 'Your order #W123 has been cancelled. '.repeat(20);
    expect(breakRuns(prose, 64)).toEqual([prose]);
    const long = 'k'.repeat(200);
    const pieces = breakRuns(`ab ${long} cd`, 64);
    expect(pieces.join('')).toBe(`ab ${long} cd`);
    expect(pieces.length).toBe(4);
    for (const p of pieces) expect(Math.max(...p.split(/\s/).map((w) => w.length))).toBeLessThanOrEqual(64);
  });

  it('folds a 5 MB line into a bounded window around a far highlight', () => {
    const t = 'q'.repeat(5_000_000);
    const w = foldWindow(t, { start: 4_000_000, end: 4_000_010 }, 20_000);
    expect(w.end - w.start).toBe(20_000);
    expect(w.start).toBeLessThan(4_000_000);
    expect(w.end).toBeGreaterThan(4_000_010);
    expect(breakRuns(t.slice(w.start, w.end)).length).toBe(Math.ceil(20_000 / 64));
  });

  it('counts UTF-8 bytes like TextEncoder', () => {
    for (const s of ['', 'abc', 'é', '€', '😀', 'a\ud800b', '\udc00'.repeat(3)]) expect(utf8Length(s)).toBe(new TextEncoder().encode(s).length);
  });

  it('shows bidi overrides, zero-width characters and controls as visible marks', () => {
    expect(splitInvisible('plain text\nwith a tab\t')).toEqual(['plain text\nwith a tab\t']);
    expect(splitInvisible('a\u202Egnp.exe\u200B')).toEqual(['a', { invisible: 'U+202E' }, 'gnp.exe', { invisible: 'U+200B' }]);
    expect(splitInvisible('\uFEFF\u2066x\u0000')).toEqual([{ invisible: 'U+FEFF' }, { invisible: 'U+2066' }, 'x', { invisible: 'U+0000' }]);
    expect(safeLabel('evil\u202Egnp.json\nnext', 200)).toBe('evil⟨U+202E⟩gnp.json next');
    expect(safeLabel('x'.repeat(500), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
