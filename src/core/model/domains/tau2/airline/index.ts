import { parseJson } from '../../../../py/json-parse';
import type { TValue } from '../../../../py/pydantic';
import type { Tau2Domain } from '../toolkit';
import { FlightDb } from './models';
import { AGENT_TOOLS } from './tools';

export const AIRLINE: Tau2Domain = {
  name: 'airline',
  agent: { className: 'AirlineTools', db: FlightDb, tools: AGENT_TOOLS, functions: [] },
  user: null,
  dbFiles: { agent: 'db.json', user: null },
  parseDbFile: (text) => parseJson(text) as TValue,
  copyOnWrite: true,
};
