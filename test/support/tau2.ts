/** τ² runs of ../shared/tau2 opened as the CLI opens them (data read from ../shared/tau2/data). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tau2Session } from '../../src/core/session/tau2/session';
import { TAU2_DIR } from './shared';

export const tau2RunFiles = (): string[] =>
  readdirSync(join(TAU2_DIR, 'runs'))
    .filter((f) => f.endsWith('.json') && f !== 'sources.json')
    .sort();

export const tau2Read = async (rel: string): Promise<string | null> => {
  try {
    return readFileSync(join(TAU2_DIR, 'data', rel), 'utf8');
  } catch {
    return null;
  }
};

export async function openTau2(file: string): Promise<Tau2Session> {
  return Tau2Session.open(Tau2Session.read(readFileSync(join(TAU2_DIR, 'runs', file), 'utf8')), tau2Read);
}

export const tau2Expected = (file: string): { domain: string; simulations: Record<string, unknown>[] } =>
  JSON.parse(readFileSync(join(TAU2_DIR, 'expected', file.replace(/\.json$/, '.expected.json')), 'utf8'));

/** A shared run file with `edit` applied to its JSON, opened as the CLI opens it (constructed cases on real data). */
export async function openTau2Edited(
  file: string,
  edit: (run: { simulations: Record<string, unknown>[]; tasks: Record<string, unknown>[] }) => void,
): Promise<Tau2Session> {
  const run = JSON.parse(readFileSync(join(TAU2_DIR, 'runs', file), 'utf8'));
  edit(run);
  return Tau2Session.open(Tau2Session.read(JSON.stringify(run)), tau2Read);
}
