import { describe, expect, it } from 'vitest';
import { gatheredLines } from '../../src/cli/output';

/** `evaluate --json` gathers its lines into writes of about 64 KB: the same bytes in the same order, none held back long. */
describe('gatheredLines', () => {
  it('the same text in the same order, in few writes, each about 64 KB but the last', async () => {
    const writes: string[] = [];
    const out = gatheredLines((t) => writes.push(t));
    const lines = Array.from({ length: 500 }, (_, i) => `{"index": ${i}, "pad": "${'x'.repeat(i % 7 === 0 ? 3000 : 400)}"}`);
    for (const l of lines) out.line(l);
    out.flush();
    expect(writes.join('')).toBe(lines.map((l) => `${l}\n`).join(''));
    expect(writes.length).toBeLessThan(lines.length / 10);
    for (const w of writes.slice(0, -1)) expect(w.length).toBeGreaterThanOrEqual(1 << 16);
  });

  it('a line is written at the next turn of the event loop without waiting for more, and flush writes nothing when nothing waits', async () => {
    const writes: string[] = [];
    const out = gatheredLines((t) => writes.push(t));
    out.line('first');
    expect(writes).toEqual([]);
    await new Promise<void>((ok) => setImmediate(ok));
    expect(writes).toEqual(['first\n']);
    out.flush();
    expect(writes).toEqual(['first\n']);
    out.line('second');
    out.flush();
    expect(writes).toEqual(['first\n', 'second\n']);
    await new Promise<void>((ok) => setImmediate(ok));
    expect(writes).toEqual(['first\n', 'second\n']);
  });
});
