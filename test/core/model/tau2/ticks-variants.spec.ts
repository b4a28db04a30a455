/**
 * Held-back variants of issue #35 class 9 (ticks: "x" was called "a full-duplex (voice) simulation"), beyond
 * ticks-not-a-list.spec.ts: a list whose items are not ticks (a number, text, a list, an empty object). τ²'s
 * SimulationRun.ticks is Optional[list[Tick]]: pydantic refuses each item, so the simulation is refused in pydantic's
 * words, naming the item (no verdict). It is a list, so get_communication_mode would call the simulation full duplex,
 * and so does the reader — unlike ticks that are no list at all.
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

describe('ticks whose items are not ticks', () => {
  it.each([
    [[1], 'simulations.0.ticks.0: Input should be an object [type=model_type, input_value=1, input_type=int]'],
    [['x'], "simulations.0.ticks.0: Input should be an object [type=model_type, input_value='x', input_type=str]"],
    [[[]], 'simulations.0.ticks.0: Input should be an object [type=model_type, input_value=[], input_type=list]'],
  ])('ticks %j: τ² refuses the file, naming the item', (ticks, said) => {
    const sim = withTicks(ticks);
    expect(sim.invalid).toBe(said);
    expect(sim.fullDuplex).toBe(true);
  });

  it('ticks [{}]: a field a Tick requires is named as missing', () => {
    expect(withTicks([{}]).invalid).toMatch(/^simulations\.0\.ticks\.0\.\w+: Field required \[type=missing, input_value=\{\}, input_type=dict\]/);
  });
});
