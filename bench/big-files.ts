/**
 * Generated inputs for the `big` bench, written to a temporary folder (never committed), the same
 * bytes every time: a results file of N episodes made of a real run's episodes repeated with the
 * text varied per copy, and a single-episode file whose last agent message is M megabytes long.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const benchDir = (): string => mkdtempSync(join(tmpdir(), 'tau-inspect-big-'));

type Json = { [k: string]: unknown };

/**
 * `n` episodes: the source run's episodes in order, copy after copy. Each copy's system prompt
 * and first user turn get a line naming the copy (neither is judged), so no two episodes share
 * their text. Written as one JSON list of one episode per line, like `json.dump` would.
 */
export function writeBigRun(source: string, n: number, out: string): { bytes: number; episodes: number } {
  const episodes = JSON.parse(readFileSync(source, 'utf8')) as Json[];
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const copy = Math.floor(i / episodes.length);
    const e = structuredClone(episodes[i % episodes.length]!);
    const traj = e.traj as Json[];
    const sys = traj.find((m) => m.role === 'system');
    if (sys && typeof sys.content === 'string') sys.content = `${sys.content}\n\n(bench copy ${copy}, episode ${i})`;
    parts.push(JSON.stringify(e));
  }
  const text = `[${parts.join(',\n')}]`;
  writeFileSync(out, text);
  return { bytes: Buffer.byteLength(text), episodes: n };
}

/** Deterministic text that reads like a long answer (numbers, ids, words), `mb` × 2^20 characters. */
function longText(mb: number): string {
  const words = ['order', '#W5193402', 'refund', '$69.49', 'gift card', 'the', 'item', 'is', 'cancelled', 'and', 'shipped', 'to', 'Lisbon', '1000ml', 'celadon'];
  const unit: string[] = [];
  let x = 12345;
  for (let k = 0; k < 4096; k++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    unit.push(words[x % words.length]!);
  }
  const block = `${unit.join(' ')}\n`;
  const target = Math.round(mb * 1024 * 1024);
  return block.repeat(Math.ceil(target / block.length)).slice(0, target);
}

/** The sample run's first episode with its last agent message replaced by `mb` MB of text. */
export function writeLongMessage(sampleRun: string, mb: number, out: string): number {
  const episodes = JSON.parse(readFileSync(sampleRun, 'utf8')) as Json[];
  const e = structuredClone(episodes[0]!);
  const traj = e.traj as Json[];
  const last = traj.findLastIndex((m) => m.role === 'assistant' && typeof m.content === 'string' && m.content !== '');
  traj[last] = { ...traj[last], content: longText(mb) };
  const text = JSON.stringify([e]);
  writeFileSync(out, text);
  return Buffer.byteLength(text);
}
