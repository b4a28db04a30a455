import { describe, expect, it } from 'vitest';
import { makeCalculate } from '../../src/core/domains/common/calculate';
import { callTool } from '../../src/core/domains/tool';
import { PyException } from '../../src/core/py/errors';
import { parseJson } from '../../src/core/py/json-parse';
import type { PyDict } from '../../src/core/py/value';

const calculate = makeCalculate('retail');
const run = (argsJson: string): string => {
  try {
    return callTool(calculate, new Map(), parseJson(argsJson) as PyDict) ?? 'None';
  } catch (e) {
    if (e instanceof PyException) return `Error: ${e.text}`;
    throw e;
  }
};
const expr = (e: string): string => run(JSON.stringify({ expression: e }));

/** τ-bench's calculate: Python eval, float(), round(·, 2), str(); CPython 3.11 error texts. */
const CASES: readonly (readonly [string, string])[] = [
  ['(158 + 161) * 3', '957.0'],
  ['10/4', '2.5'],
  ['1/3', '0.33'],
  ['0.125', '0.12'],
  ['0.625', '0.62'],
  ['0.375', '0.38'],
  ['2.675', '2.67'],
  ['1093.335', '1093.34'],
  ['10**16', '1e+16'],
  ['1000000000000000000000*1.0', '1e+21'],
  ['-0.001', '-0.0'],
  ['0 * -1.0', '-0.0'],
  ['0 * -1', '0.0'],
  ['7 // 2', '3.0'],
  ['-7 // 2', '-4.0'],
  ['-2**2', '-4.0'],
  ['2**-2', '0.25'],
  ['--1', '1.0'],
  ['.5 + 5.', '5.5'],
  ['9007199254740993', '9007199254740992.0'],
  ['1/0', 'Error: division by zero'],
  ['1.0/0', 'Error: float division by zero'],
  ['1//0', 'Error: integer division or modulo by zero'],
  ['', 'Error: invalid syntax (<string>, line 0)'],
  ['   ', 'Error: invalid syntax (<string>, line 0)'],
  ['1 2', 'Error: invalid syntax (<string>, line 1)'],
  ['1 +', 'Error: invalid syntax (<string>, line 1)'],
  ['01 + 1', 'Error: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)'],
  ['(1', "Error: '(' was never closed (<string>, line 1)"],
  ['1)', "Error: unmatched ')' (<string>, line 1)"],
  ['()', "Error: float() argument must be a string or a real number, not 'tuple'"],
  ['(1)(2)', "Error: 'int' object is not callable"],
  ['2**2000', 'Error: int too large to convert to float'],
  ['10 ** 308 * 10.0', 'inf'],
  ['(-8) ** 0.5', "Error: float() argument must be a string or a real number, not 'complex'"],
  ['0**-1', 'Error: 0.0 cannot be raised to a negative power'],
  ['1e5', 'Error: invalid characters in expression'],
  ['2%3', 'Error: invalid characters in expression'],
];

describe('calculate (Python expression semantics)', () => {
  it.each(CASES)('%j → %s', (e, want) => expect(expr(e)).toBe(want));
  it.each([
    ['{"expression": null}', "Error: 'NoneType' object is not iterable"],
    ['{"expression": 5}', "Error: 'int' object is not iterable"],
    ['{"expression": ["1", "+", "2"]}', 'Error: eval() arg 1 must be a string, bytes or code object'],
    ['{}', "Error: Calculate.invoke() missing 1 required positional argument: 'expression'"],
  ])('argument %s → %s', (args, want) => expect(run(args)).toBe(want));
});
