/**
 * banking_knowledge red team: inputs no shared run holds, on ../shared's banking DB, each answered as τ²'s tools.py
 * (a2c0247, CPython 3.11) answers it. Each case was found by replaying generated calls through τ²'s own environment
 * and through ours and comparing the answers and the DB hashes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parseJson } from '../../../../src/core/py/json-parse';
import { modelDump, pyJsonDumps, validate, type TDict, type TValue } from '../../../../src/core/py/pydantic';
import { sha256Hex } from '../../../../src/core/py/hash';
import { Tau2Environment } from '../../../../src/core/env/tau2/environment';
import { TAU2_PINNED_COMMIT, tau2DataPath } from '../../../../src/core/model/data/tau2/data';
import { BANKING } from '../../../../src/core/model/domains/tau2/banking';
import { TransactionalDb } from '../../../../src/core/model/domains/tau2/banking/models';
import { float } from '../../../../src/core/model/domains/tau2/banking/py';
import type { Tau2ToolCall } from '../../../../src/core/model/episode/tau2/types';
import { describeTau2, TAU2_DIR } from '../../../support/shared';

let base: TValue | null = null;
const baseDb = () =>
  (base ??= validate(
    TransactionalDb,
    parseJson(readFileSync(join(TAU2_DIR, 'data', tau2DataPath('banking_knowledge', 'db.json', TAU2_PINNED_COMMIT)), 'utf8')) as TValue,
  ));
const env = () => new Tau2Environment(BANKING, { agent: baseDb() as never, user: null }, false);
const call = (name: string, a: Record<string, unknown>, requestor: 'assistant' | 'user' = 'assistant'): Tau2ToolCall => ({
  id: 'c',
  name,
  arguments: parseJson(JSON.stringify(a)) as TDict,
  requestor,
});
const hash = (e: Tau2Environment): string => sha256Hex(pyJsonDumps(modelDump(e.agent!.db), { sortKeys: true }));
/** The answer and the DB hash after one call on a fresh environment. */
function once(name: string, a: Record<string, unknown>): { content: string; error: boolean; hash: string } {
  const e = env();
  const r = e.getResponse(call(name, a));
  return { ...r, hash: hash(e) };
}

describeTau2('banking_knowledge red team (../shared banking DB)', () => {
  const pay = (amount: string) =>
    once('pay_credit_card_from_checking_9182', {
      user_id: 'lj82d4f1a9',
      checking_account_id: 'chk_lj82d4f1a9',
      credit_card_account_id: 'cc_lj82d4f1a9_silver',
      amount,
    });

  it('float() of a str reads any Unicode decimal digits and non-ASCII spaces, as CPython does', () => {
    expect(float('١٢٣٤')).toBe(1234);
    expect(float('١٢.٥')).toBe(12.5);
    expect(float('٣e٢')).toBe(300);
    expect(float('\u2000 5\u3000')).toBe(5);
    expect(float('١_٢')).toBe(12);
    // Only ASCII whitespace is stripped after the digits are made ASCII: \x1c-\x1f are str.isspace() but not Py_ISSPACE.
    expect(() => float('\x1c5')).toThrow("could not convert string to float: '\\x1c5'");
    expect(() => float('5\x1f')).toThrow("could not convert string to float: '5\\x1f'");
    expect(() => float('²')).toThrow("could not convert string to float: '²'");
  });

  it('an amount in Arabic-Indic digits pays as the ASCII amount does (same answer, same DB)', () => {
    const ascii = pay('34');
    expect(ascii.content).toMatch(/^Payment processed successfully!/);
    expect(pay('٣٤')).toEqual(ascii);
    expect(pay('\u00a034 ')).toEqual(ascii);
  });

  it('an amount with a \\x1c before it is no number: refused as a word is, the DB unchanged', () => {
    const word = pay('abc');
    expect(word.content).toBe('Error: Invalid payment amount. Must be a positive number.');
    expect(pay('\x1c34')).toEqual(word);
  });
});
