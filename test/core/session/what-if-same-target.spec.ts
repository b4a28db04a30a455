/**
 * Two edits of the same thing in a what-if (a `#ep=` link's or `whatif=` edits; issue #35 class 9): the
 * app replaces an edit with the next one of the same call or message, so only a link made by hand holds
 * both. The banner said "2 edits" while the second was silently ignored; now the what-if is refused,
 * naming both edits and the call.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InspectSession } from '../../../src/core/contract';
import { Tau2Session } from '../../../src/core/session/tau2/session';

const ROOT = resolve(import.meta.dirname, '../../../sample-runs');

async function retail(): Promise<InspectSession> {
  const s = new InspectSession(readFileSync(join(ROOT, 'runs/retail-sample.json'), 'utf8'));
  s.useData(await s.loadData(async (rel) => readFile(join(ROOT, 'data', rel), 'utf8').catch(() => null), 'sample-runs/data'));
  return s;
}

async function mock(): Promise<Tau2Session> {
  const read = async (rel: string): Promise<string | null> => {
    for (const r of [rel, rel.replace(/^[0-9a-f]{7,40}\//, '')]) {
      const text = await readFile(join(ROOT, 'tau2-data', r), 'utf8').catch(() => null);
      if (text !== null) return text;
    }
    return null;
  };
  return Tau2Session.open(Tau2Session.read(readFileSync(join(ROOT, 'runs/tau2-mock-sample.json'), 'utf8')), read);
}

const errorOf = (r: object): string | null => ('error' in r ? String(r.error) : null);

describe('two edits of the same call or message are refused in words, never one silently ignored', () => {
  it('τ-bench: two argument edits of one step', async () => {
    const s = await retail();
    const traj = s.records[1]!.traj;
    const at = traj.findIndex((m) => m.get('role') === 'assistant' && Array.isArray(m.get('tool_calls')) && (m.get('tool_calls') as unknown[]).length > 0);
    expect(at).toBeGreaterThan(0);
    const one = { messageIndex: at, kwargsJson: '{"user_id": "nobody_1"}' };
    expect(errorOf(s.whatIf(1, [one]))).toBeNull();
    expect(errorOf(s.whatIf(1, [one, { messageIndex: at, kwargsJson: '{"user_id": "somebody_2"}' }]))).toBe(
      `edits 1 and 2 both change message ${at}: a what-if holds one change of each, and the second would be ignored`,
    );
    expect(errorOf(s.whatIf(1, [one, { messageIndex: at, remove: true }]))).toMatch(/^edits 1 and 2 both change message/);
    // Inserted calls before the same message never clash.
    const insert = { messageIndex: at, insert: true, name: 'get_user_details', kwargsJson: '{"user_id": "x"}' };
    expect(errorOf(s.whatIf(1, [insert, insert, one]))).toBeNull();
  });

  it('τ²: two edits of one call, two texts of one message; a call and the text of its message are two things', async () => {
    const s = await mock();
    const sim = s.run.simulations[1]!;
    const at = sim.messages.findIndex((m) => m.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0);
    expect(at).toBeGreaterThanOrEqual(0);
    const call = { messageIndex: at, callIndex: 0, kwargsJson: '{}' };
    expect(errorOf(s.whatIf(1, [call]))).toBeNull();
    expect(errorOf(s.whatIf(1, [call, { ...call, kwargsJson: '{"a": 1}' }]))).toBe(
      `edits 1 and 2 both change call 1 of message #${at}: a what-if holds one change of each, and the second would be ignored`,
    );
    expect(errorOf(s.whatIf(1, [call, { messageIndex: at, callIndex: 0, remove: true }]))).toMatch(/^edits 1 and 2 both change call 1 of message/);
    const said = sim.messages.findIndex((m) => m.role === 'assistant' && m.content);
    const text = { messageIndex: said, content: 'a' };
    expect(errorOf(s.whatIf(1, [text, { messageIndex: said, content: 'b' }]))).toBe(
      `edits 1 and 2 both change the text of message #${said}: a what-if holds one change of each, and the second would be ignored`,
    );
    expect(errorOf(s.whatIf(1, [call, { messageIndex: at, content: 'done' }]))).toBeNull();
  });
});
