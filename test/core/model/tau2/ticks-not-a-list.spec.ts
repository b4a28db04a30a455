/**
 * A simulation whose `ticks` is not a list (issue #35 class 9): τ²'s SimulationRun.ticks is
 * Optional[list[Tick]], so pydantic refuses the file; it is not "a full-duplex (voice) simulation".
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTau2Text } from '../../../../src/core/contract';

const sample = readFileSync(resolve(import.meta.dirname, '../../../../sample-runs/runs/tau2-mock-sample.json'), 'utf8');

function withTicks(ticks: unknown) {
  const run = JSON.parse(sample) as { simulations: Record<string, unknown>[] };
  run.simulations[0]!.ticks = ticks;
  return readTau2Text(JSON.stringify(run))!.simulations[0]!;
}

describe('ticks that are not a list', () => {
  it.each([
    ['x', 'str'],
    [3, 'int'],
    [{ a: 1 }, 'dict'],
    [true, 'bool'],
  ])('ticks %j: τ² refuses the file, saying in pydantic’s words that the ticks field is not a list', (ticks, type) => {
    const sim = withTicks(ticks);
    expect(sim.invalid).toBe(
      `simulations.0.ticks: Input should be a valid array [type=list_type, input_value=${type === 'str' ? "'x'" : type === 'int' ? '3' : type === 'dict' ? "{'a': 1}" : 'True'}, input_type=${type}]`,
    );
    expect(sim.fullDuplex).toBe(false);
  });

  it('a list of ticks is still a full-duplex simulation; null or absent ticks are not', () => {
    expect(withTicks([]).fullDuplex).toBe(true);
    expect(withTicks([]).invalid).toBeNull();
    expect(withTicks(null).fullDuplex).toBe(false);
    expect(withTicks(null).invalid).toBeNull();
  });
});
