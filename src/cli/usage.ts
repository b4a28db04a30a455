import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { DOMAINS, type Domain, type RewardRule } from '../core/contract';
import { disableCache } from './tau2/db-cache';

/** A mistake in how the command was called: printed with the usage, exit status 2. */
export class UsageError extends Error {}

/** A file named on the command line is not what the command needs (exit 2 like a usage error; the usage is not printed). */
export class InputFileError extends UsageError {}

/**
 * A command's arguments parsed strictly: unknown options and missing values are `UsageError`s with
 * node:util's own words (minus its hint); `--help` prints the usage and answers null.
 */
export function parseCommand<O extends ParseArgsOptionsConfig>(args: string[], options: O, usage: string) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    // node:util's messages name the option; keep them, minus the stack.
    throw new UsageError((e as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
  if ((parsed.values as { 'no-cache'?: boolean })['no-cache']) disableCache();
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(usage + '\n');
    return null;
  }
  return parsed;
}

/** At most `max` files named, and at least `min`: `missing` names what is missing. */
export function positionalFiles(positionals: readonly string[], min: number, max: number, missing: string): string[] {
  if (positionals.length < min) throw new UsageError(missing);
  if (positionals.length > max) throw new UsageError(`unexpected argument '${positionals[max]}'`);
  return [...positionals];
}

/** The options every judging command takes: data, JSON output, the detection overrides, help. */
export const JUDGING_OPTIONS = {
  data: { type: 'string' },
  json: { type: 'boolean', default: false },
  domain: { type: 'string' },
  'data-version': { type: 'string' },
  rule: { type: 'string' },
  'no-cache': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The options that skip detection (`--domain`, `--data-version`, `--rule`), checked. */
export interface JudgingOptions {
  readonly domain?: Domain;
  readonly dataVersion?: string;
  readonly rule?: RewardRule;
}

export function judgingOptions(values: { domain?: string; 'data-version'?: string; rule?: string }): JudgingOptions {
  if (values.domain !== undefined && !DOMAINS.includes(values.domain as Domain))
    throw new UsageError(`--domain must be retail or airline, not '${values.domain}'`);
  if (values.rule !== undefined && values.rule !== 'db-and-outputs' && values.rule !== 'outputs-only')
    throw new UsageError(`--rule must be db-and-outputs or outputs-only, not '${values.rule}'`);
  return {
    ...(values.domain !== undefined && { domain: values.domain as Domain }),
    ...(values['data-version'] !== undefined && { dataVersion: values['data-version'] }),
    ...(values.rule !== undefined && { rule: values.rule as RewardRule }),
  };
}
