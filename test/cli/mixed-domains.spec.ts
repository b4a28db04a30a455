/**
 * Red team of issue 20 item 1: a file of two runs pasted together — 30 retail episodes, then the
 * 100 of an airline run. The file is airline (most evidence); the 30 retail episodes were judged
 * against airline tasks with their ids (episode 18, recorded 0, became a pass). Each is now not
 * evaluable with a sentence naming its domain, and every airline episode keeps its own verdict.
 * The first megabyte is retail, so this also overturns a provisional domain while the file streams.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { jsonDumps } from '../../src/core/py/json-dumps';
import { parseJson } from '../../src/core/py/json-parse';
import type { PyValue } from '../../src/core/py/value';
import { cliBundle, jsonLines } from '../support/cli-bundle';
import { DATA_DIR, describeShared, readShared, SHARED_DIR } from '../support/shared';

let bundle = '';
beforeAll(async () => {
  bundle = await cliBundle();
});
const evaluate = (file: string) => {
  const r = spawnSync(process.execPath, [bundle, 'evaluate', file, '--data', DATA_DIR, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
interface Line {
  index: number;
  reward?: number;
  error?: string;
  domain?: string;
}
/** The last line printed for each index (a revised line replaces the earlier one). */
const finalLines = (out: string): Line[] => {
  const byIndex = new Map<number, Line>();
  for (const x of jsonLines<Line>(out)) byIndex.set(x.index, x);
  return [...byIndex.keys()].sort((a, b) => a - b).map((i) => byIndex.get(i)!);
};

const RETAIL = 'grok-4-tool-calling-retail.json';
const AIRLINE = 'grok-4-tool-calling-airline.json';
const PASTED = 30;

describeShared('evaluate on a file of two runs pasted together (30 retail episodes, then an airline run)', () => {
  let mixed = '';
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'tau-mixed-'));
    mixed = join(dir, 'mixed.json');
    const retail = parseJson(readShared('runs', RETAIL)) as PyValue[];
    const airline = parseJson(readShared('runs', AIRLINE)) as PyValue[];
    writeFileSync(mixed, jsonDumps([...retail.slice(0, PASTED), ...airline]));
    return () => rmSync(dir, { recursive: true, force: true });
  });

  it('the pasted retail episodes are not judged against airline tasks; each airline episode keeps its verdict', () => {
    const real = evaluate(join(SHARED_DIR, 'runs', AIRLINE));
    const r = evaluate(mixed);
    expect(real.code, real.err).toBe(0);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/^domain: airline/m);
    const lines = finalLines(r.out);
    const airline = finalLines(real.out);
    expect(lines).toHaveLength(PASTED + airline.length);
    for (const x of lines.slice(0, PASTED)) {
      expect(x.reward, `episode ${x.index}`).toBeUndefined();
      expect(x.error).toMatch(/^this episode belongs to a retail run: it mentions retail-only tools or headings \d+ times \(.*\).*while the file is airline/);
    }
    expect(lines.slice(PASTED).map((x) => [x.index - PASTED, x.reward, x.error, x.domain])).toEqual(airline.map((x) => [x.index, x.reward, x.error, x.domain]));
  });

  it("an agent that calls the other domain's tools, again and again, is still judged as τ-bench judged it", () => {
    // Episode 11 of the airline run (12 airline mentions, its policy heading counting 5), its agent calling a retail-only tool eight more times at the end (each answered
    // "Unknown action", as τ-bench's environment answers a tool it lacks): nothing in the DB or what it said changes.
    const dir = mkdtempSync(join(tmpdir(), 'tau-mixed-'));
    try {
      const episodes = parseJson(readShared('runs', AIRLINE)) as PyValue[];
      const traj = (episodes[11] as Map<string, PyValue>).get('traj') as PyValue[];
      for (let k = 0; k < 8; k++) {
        const id = `call_unknown_${k}`;
        const fn = new Map<string, PyValue>([
          ['name', 'get_order_details'],
          ['arguments', '{"order_id": "#W0000000"}'],
        ]);
        const call = new Map<string, PyValue>([
          ['id', id],
          ['type', 'function'],
          ['function', fn],
        ]);
        traj.push(
          new Map<string, PyValue>([
            ['role', 'assistant'],
            ['content', null],
            ['tool_calls', [call]],
          ]),
        );
        traj.push(
          new Map<string, PyValue>([
            ['role', 'tool'],
            ['tool_call_id', id],
            ['name', 'get_order_details'],
            ['content', 'Unknown action get_order_details'],
          ]),
        );
      }
      const file = join(dir, 'confused.json');
      writeFileSync(file, jsonDumps(episodes));
      const real = finalLines(evaluate(join(SHARED_DIR, 'runs', AIRLINE)).out);
      const r = evaluate(file);
      expect(r.code, r.err).toBe(0);
      const lines = finalLines(r.out);
      expect(lines[11]!.error).toBeUndefined();
      expect(lines.map((x) => [x.index, x.reward, x.error])).toEqual(real.map((x) => [x.index, x.reward, x.error]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
