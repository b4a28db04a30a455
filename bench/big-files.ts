/**
 * Generated inputs for the `big` bench, written to a temporary folder (never committed), the same
 * bytes every time: a results file of N episodes made of a real run's episodes repeated with the
 * text varied per copy, and a single-episode file whose last agent message is M megabytes long.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanList } from '../src/core/py/json-parse';

export const benchDir = (): string => mkdtempSync(join(tmpdir(), 'tau-inspect-big-'));

type Json = { [k: string]: unknown };

/**
 * `n` episodes: the source run's episodes in order, copy after copy, each as its own text in the
 * source (so numbers keep their exact spelling, e.g. `50.0`), with the system prompt's heading
 * naming the copy (the prompt is not judged), so no two episodes share their text.
 */
export function writeBigRun(source: string, n: number, out: string): { bytes: number; episodes: number } {
  const text = readFileSync(source, 'utf8');
  const scan = scanList(
    text,
    () => true,
    /\{/,
    (_v, _i, start, end) => text.slice(start, end),
  );
  if (!scan || scan.items.length === 0) throw new Error(`${source}: not a list of episodes`);
  const episodes = scan.items.map((it) => (it.ok ? it.value : text.slice(it.start, it.end)));
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const copy = Math.floor(i / episodes.length);
    parts.push(episodes[i % episodes.length]!.replace('Agent Policy', `Agent Policy (bench copy ${copy}, episode ${i})`));
  }
  const written = `[${parts.join(', ')}]`;
  writeFileSync(out, written);
  return { bytes: Buffer.byteLength(written), episodes: n };
}

/** Deterministic text that reads like a long answer (numbers, ids, words), `mb` × 2^20 characters. */
function longText(mb: number): string {
  const words = [
    'order',
    '#W5193402',
    'refund',
    '$69.49',
    'gift card',
    'the',
    'item',
    'is',
    'cancelled',
    'and',
    'shipped',
    'to',
    'Lisbon',
    '1000ml',
    'celadon',
  ];
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
