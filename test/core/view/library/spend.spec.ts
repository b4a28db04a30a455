/** Cost and time as the files record them: per simulation into the index's columns, per run on the leaderboard; absent is "not recorded", never 0. */
import { describe, expect, it } from 'vitest';
import {
  costPerEpisode,
  leaderboard,
  NO_LIBRARY_FILTERS,
  passPerDollar,
  TableBuilder,
  tau2Spend,
  tauBenchSpend,
  type LibraryRun,
} from '../../../../src/core/contract';

const dict = (o: Record<string, unknown>): Map<string, unknown> =>
  new Map(
    Object.entries(o).map(([k, v]) => [
      k,
      v && typeof v === 'object' && !Array.isArray(v)
        ? dict(v as Record<string, unknown>)
        : Array.isArray(v)
          ? v.map((x) => (x && typeof x === 'object' ? dict(x as Record<string, unknown>) : x))
          : v,
    ]),
  );

describe('spend', () => {
  it('a τ² simulation: its costs and duration, its messages’ usage summed; none recorded is null', () => {
    const sim = dict({
      agent_cost: 0.02,
      user_cost: 3n,
      duration: 19.5,
      messages: [
        { role: 'user' },
        { role: 'assistant', usage: { prompt_tokens: 450n, completion_tokens: 51n } },
        { role: 'assistant', usage: { prompt_tokens: 50 } },
      ],
    });
    expect(tau2Spend({ raw: sim })).toEqual({ agent_cost: 0.02, user_cost: 3, duration: 19.5, prompt_tokens: 500, completion_tokens: 51 });
    expect(tau2Spend({ raw: dict({ agent_cost: null, duration: 'x', messages: [{ role: 'user' }] }) })).toEqual({
      agent_cost: null,
      user_cost: null,
      duration: null,
      prompt_tokens: null,
      completion_tokens: null,
    });
  });

  it('a τ-bench episode: info.user_cost only', () => {
    expect(tauBenchSpend(dict({ info: { user_cost: 0.0035 } }))).toMatchObject({ user_cost: 0.0035, agent_cost: null, duration: null });
    expect(tauBenchSpend(dict({ info: {} })).user_cost).toBeNull();
  });

  it('the leaderboard: per simulation over the rows that record it, pass^1 per dollar; a run recording none says so', () => {
    const run = (file: string): LibraryRun => ({
      file,
      benchmark: 'tau2',
      domain: 'airline',
      model: null,
      userModel: null,
      dataVersion: null,
      contentHash: file,
    });
    const b = new TableBuilder();
    const add = (r: LibraryRun, i: number, reward: number, spend?: Record<string, number | null>) =>
      b.add({
        run: r,
        index: i,
        task: String(i),
        trial: 0,
        recorded: reward,
        reward,
        error: false,
        infrastructure: false,
        disagree: false,
        findingKinds: [],
        ...(spend && { spend }),
      });
    const [paid, free] = [run('paid'), run('free')];
    add(paid, 0, 1, { agent_cost: 0.25, user_cost: 0.25, duration: 10, prompt_tokens: 100, completion_tokens: null });
    add(paid, 1, 0, { agent_cost: 0.5, user_cost: null, duration: null, prompt_tokens: null, completion_tokens: null });
    add(free, 0, 1);
    const board = leaderboard(b.finish(), NO_LIBRARY_FILTERS);
    const p = board.find((r) => r.info.file === 'paid')!;
    const f = board.find((r) => r.info.file === 'free')!;
    expect(p.spend.agent_cost).toEqual({ sum: 0.75, rows: 2 });
    expect(p.spend.user_cost).toEqual({ sum: 0.25, rows: 1 });
    expect(p.spend.duration).toEqual({ sum: 10, rows: 1 });
    expect(p.spend.completion_tokens).toEqual({ sum: 0, rows: 0 });
    // (0.25 + 0.5 + 0.25) over the two rows recording an agent cost.
    expect(costPerEpisode(p)).toBe(0.5);
    expect(passPerDollar(p)).toBe(1);
    expect(f.spend.agent_cost.rows).toBe(0);
    expect(costPerEpisode(f)).toBeNull();
    expect(passPerDollar(f)).toBeNull();
    // A user cost alone (τ-bench's info.user_cost) is no cost of a simulation.
    expect(costPerEpisode({ spend: { ...p.spend, agent_cost: { sum: 0, rows: 0 } } })).toBeNull();
  });
});
