/**
 * The invented banking_knowledge sample (sample-runs/runs/tau2-banking-sample.json on sample-runs/tau2-data): every
 * recorded reward is the recomputed one, and each simulation shows what it was written to show.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Tau2Session } from '../../../src/core/session/tau2/session';

const ROOT = resolve(import.meta.dirname, '../../..');
const read = async (p: string): Promise<string | null> => {
  try {
    return readFileSync(join(ROOT, 'sample-runs/tau2-data', p.replace(/^[^/]*\/(?=data\/tau2)/, '')), 'utf8');
  } catch {
    return null;
  }
};

describe('the invented banking_knowledge sample', () => {
  let session: Tau2Session;
  beforeAll(async () => {
    session = await Tau2Session.open(Tau2Session.read(readFileSync(join(ROOT, 'sample-runs/runs/tau2-banking-sample.json'), 'utf8')), read);
  });

  it('recomputed rewards are the recorded ones: 1, 0, 1, 0', () => {
    const reports = [0, 1, 2, 3].map((i) => session.report(i));
    expect(reports.map((r) => r.reward)).toEqual([1, 0, 1, 0]);
    expect(reports.every((r) => r.matches_recorded_reward)).toBe(true);
  });

  it('a read outside the allowlist is not logged (and the run passes); a hidden tool called by name runs but is never logged (the DB differs)', () => {
    expect(session.report(0).findings.find((f) => f.kind === 'read-log')?.text).toContain('get_debit_cards_by_account_id_7823');
    const direct = session.report(1);
    expect(direct.tool_calls.find((c) => c.name === 'freeze_debit_card_3892')?.output).toMatch(/^Debit Card Frozen Successfully/);
    expect(direct.db_match).toBe(false);
  });

  it('retrieval: documents opened from the data, the required ones said', async () => {
    const ok = await session.retrieval(2);
    expect(ok.calls.map((c) => c.documents.map((d) => [d.id, d.required, d.doc?.title]))).toEqual([
      [['doc_sample_rewards_disputes_001', true, 'Cash back disputes (invented sample)']],
    ]);
    const failed = await session.retrieval(3);
    expect(failed.required).toEqual([
      { id: 'doc_sample_rewards_disputes_001', doc: expect.objectContaining({ title: 'Cash back disputes (invented sample)' }), retrievedIn: null },
    ]);
    expect(session.report(3).findings.find((f) => f.kind === 'required-documents')?.text).toBe(
      'The agent never retrieved any of the documents the task requires: doc_sample_rewards_disputes_001.',
    );
  });
});

describe('the invented banking sample, what-if', () => {
  it('the hidden tool called by name, edited into unlock + call by JSON string: the DB now equals gold (0.0 → 1.0)', async () => {
    const session = await Tau2Session.open(Tau2Session.read(readFileSync(join(ROOT, 'sample-runs/runs/tau2-banking-sample.json'), 'utf8')), read);
    const sim = session.run.simulations[1]!;
    const at = sim.messages.findIndex((m) => m.toolCalls?.some((c) => c.name === 'freeze_debit_card_3892'));
    const view = session.whatIf(1, [
      {
        messageIndex: at,
        callIndex: 0,
        name: 'call_discoverable_agent_tool',
        kwargsJson: '{"agent_tool_name": "freeze_debit_card_3892", "arguments": "{\\"card_id\\": \\"dbc_wren_a\\"}"}',
      },
      { messageIndex: at, insert: true, name: 'unlock_discoverable_agent_tool', kwargsJson: '{"agent_tool_name": "freeze_debit_card_3892"}' },
    ]);
    if ('error' in view) throw new Error(view.error);
    expect([view.rewardBefore, view.rewardAfter]).toEqual([0, 1]);
  });
});
