import { describe, expect, it } from 'vitest';
import type { Db } from '../../../src/core/model/data/db';
import { buildDb, DOMAIN_TABLES } from '../../../src/core/model/data/db';
import { executeTool } from '../../../src/core/env/execute';
import { replayEpisode } from '../../../src/core/env/replay';
import { TOOLS } from '../../../src/core/model/domains/registry';
import type { Action, AgentStep } from '../../../src/core/model/episode/types';
import { dict, type PyValue } from '../../../src/core/py/value';
import { sampleVersion } from '../../support/fixtures';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../support/fixtures';

const call = (name: string, kwargs: Record<string, PyValue>): AgentStep => ({
  messageIndex: 0,
  action: { name, kwargs: dict(Object.entries(kwargs)) } as Action,
  crash: null,
  observationIndex: null,
  recordedObservation: null,
});

/** What each call answers when run on its own on `db` (no replay, nothing remembered). */
const alone = (db: Db, steps: readonly AgentStep[]): string[] =>
  steps.map((s) => executeTool(db, TOOLS.retail.get(s.action!.name)!, s.action!.kwargs).observation!);

const USER = 'priya_okafor_3187';

/**
 * A read-only call on the DB every episode starts from is answered once per name and arguments (`replayEpisode`
 * remembers it): each answer must be the one the call gives on its own — for arguments equal as values but of another
 * type, for a DB with the same names and other content, and after a write (then it is not the base any more).
 */
describe('read-only answers remembered on the base DB', () => {
  const base = sampleVersion().db;
  const reads = [
    call('get_user_details', { user_id: USER }),
    call('get_user_details', { user_id: 'nobody_0000' }),
    call('get_user_details', { user_id: 1n }),
    call('get_user_details', { user_id: 1.0 }),
    call('get_user_details', { user_id: true }),
    call('get_user_details', { user_id: '1' }),
    call('get_user_details', {}),
    call('find_user_id_by_name_zip', { first_name: 'Priya', last_name: 'Okafor', zip: '' }),
    call('calculate', { expression: '1' }),
    call('calculate', { expression: 1n }),
    call('calculate', { expression: 1.0 }),
    call('calculate', { expression: true }),
  ];

  it('the same answers as each call alone, episode after episode', () => {
    const want = alone(base, reads);
    for (let episode = 0; episode < 3; episode++) {
      const replay = replayEpisode('retail', base, reads);
      expect(replay.steps.map((s) => s.observation)).toEqual(want);
      expect(replay.steps.map((s) => s.exception?.text ?? null)).toEqual(
        reads.map((r) => executeTool(base, TOOLS.retail.get(r.action!.name)!, r.action!.kwargs).exception?.text ?? null),
      );
    }
    // `calculate` answers each type of one value otherwise (a str is evaluated; an int, a float, a bool is not iterable).
    expect(new Set(want.slice(-4)).size).toBe(4);
  });

  it('another DB with the same tables and other content answers for itself', () => {
    const texts = Object.fromEntries(
      DOMAIN_TABLES.retail.map((t) => [t, readFileSync(join(ROOT, `sample-runs/data/tau_bench/envs/retail/data/${t}.json`), 'utf8')]),
    );
    const users = JSON.parse(texts.users!) as Record<string, { name: { first_name: string } }>;
    users[USER]!.name.first_name = 'Renamed';
    const other = buildDb('retail', { ...texts, users: JSON.stringify(users) });
    const first = replayEpisode('retail', base, reads.slice(0, 1)).steps[0]!.observation;
    const second = replayEpisode('retail', other, reads.slice(0, 1)).steps[0]!.observation;
    expect(first).toContain('Priya');
    expect(second).toContain('Renamed');
    expect(second).toBe(alone(other, reads.slice(0, 1))[0]);
  });

  it('a read after a write sees the write', () => {
    const user = executeTool(base, TOOLS.retail.get('get_user_details')!, dict([['user_id', USER]])).observation!;
    const order = (JSON.parse(user) as { orders: string[] }).orders[0]!;
    const steps = [
      call('get_order_details', { order_id: order }),
      call('cancel_pending_order', { order_id: order, reason: 'no longer needed' }),
      call('get_order_details', { order_id: order }),
    ];
    const replay = replayEpisode('retail', base, steps);
    const [before, , after] = replay.steps.map((s) => s.observation);
    expect(before).toBe(alone(base, steps.slice(0, 1))[0]);
    expect(after).toBe(alone(replay.finalState, steps.slice(2))[0]);
    if (!replay.steps[1]!.observation.startsWith('Error')) expect(after).not.toBe(before);
  });
});
