import { jsonDumps } from '../../../py/json-dumps';
import type { PyValue } from '../../../py/value';
import { defineTool } from '../tool';

const AIRPORT_CITIES: ReadonlyArray<readonly [string, string]> = [
  ['SFO', 'San Francisco'],
  ['JFK', 'New York'],
  ['LAX', 'Los Angeles'],
  ['ORD', 'Chicago'],
  ['DFW', 'Dallas'],
  ['DEN', 'Denver'],
  ['SEA', 'Seattle'],
  ['ATL', 'Atlanta'],
  ['MIA', 'Miami'],
  ['BOS', 'Boston'],
  ['PHX', 'Phoenix'],
  ['IAH', 'Houston'],
  ['LAS', 'Las Vegas'],
  ['MCO', 'Orlando'],
  ['EWR', 'Newark'],
  ['CLT', 'Charlotte'],
  ['MSP', 'Minneapolis'],
  ['DTW', 'Detroit'],
  ['PHL', 'Philadelphia'],
  ['LGA', 'LaGuardia'],
];

const OBSERVATION = jsonDumps(new Map<string, PyValue>(AIRPORT_CITIES));

export const listAllAirports = defineTool({
  name: 'list_all_airports',
  className: 'ListAllAirports',
  module: 'tau_bench.envs.airline.tools.list_all_airports',
  params: [],
  writes: false,
  invoke: () => OBSERVATION,
});
