import { describe, expect, it } from 'vitest';
import type { Db } from '../../../src/core/model/data/db';
import { makeCalculate } from '../../../src/core/model/domains/common/calculate';
import { executeTool } from '../../../src/core/env/execute';
import type { PyValue } from '../../../src/core/py/value';

const EMPTY_DB: Db = new Map();
const calculate = makeCalculate('retail');

function observe(expression: PyValue): string | null {
  return executeTool(EMPTY_DB, calculate, new Map([['expression', expression]])).observation;
}

// Every row was produced by τ-bench's Calculate.invoke on CPython 3.11.7, called from a
// ThreadPoolExecutor worker the way tau_bench.run does (the call depth sets the limits of
// the deep cases below).
const EXPRESSIONS: readonly (readonly [string, string])[] = [
  ['(158 + 161) * 3', '957.0'],
  ['   1 + 1', '2.0'],
  ['10/4', '2.5'],
  ['1/3', '0.33'],
  ['0.125', '0.12'],
  ['0.625', '0.62'],
  ['2.675', '2.67'],
  ['1093.335', '1093.34'],
  ['10**16', '1e+16'],
  ['1000000000000000000000*1.0', '1e+21'],
  ['-0.001', '-0.0'],
  ['0 * -1.0', '-0.0'],
  ['0 * -1', '0.0'],
  ['7 // 2', '3.0'],
  ['-7 // 2', '-4.0'],
  ['1/0', 'Error: division by zero'],
  ['1.0/0', 'Error: float division by zero'],
  ['1//0', 'Error: integer division or modulo by zero'],
  ['', 'Error: invalid syntax (<string>, line 0)'],
  ['   ', 'Error: invalid syntax (<string>, line 0)'],
  ['1 2', 'Error: invalid syntax (<string>, line 1)'],
  ['1 +', 'Error: invalid syntax (<string>, line 1)'],
  ['1.2.3', 'Error: invalid syntax (<string>, line 1)'],
  ['..', 'Error: invalid syntax (<string>, line 1)'],
  ['01 + 1', 'Error: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)'],
  ['(1', "Error: '(' was never closed (<string>, line 1)"],
  ['1)', "Error: unmatched ')' (<string>, line 1)"],
  ['()', "Error: float() argument must be a string or a real number, not 'tuple'"],
  ['(1)(2)', "Error: 'int' object is not callable"],
  ['2**2000', 'Error: int too large to convert to float'],
  ['2 ** 10000.0', "Error: (34, 'Numerical result out of range')"],
  ['10 ** 308 * 10.0', 'inf'],
  ['(-8) ** 0.5', "Error: float() argument must be a string or a real number, not 'complex'"],
  ['0**-1', 'Error: 0.0 cannot be raised to a negative power'],
  ['1e5', 'Error: invalid characters in expression'],
  ['(1,2)', 'Error: invalid characters in expression'],
  ['2%3', 'Error: invalid characters in expression'],
  ['3 * 19.99', '59.97'],
  ['9007199254740993', '9007199254740992.0'],
  ['2**-2', '0.25'],
  ['-2**2', '-4.0'],
  ['--1', '1.0'],
  ['-+-1', '1.0'],
  ['.5', '0.5'],
  ['5.', '5.0'],
  ['5. + .5', '5.5'],
  ['00', '0.0'],
  ['000.5', '0.5'],
  ['01.5', '1.5'],
  ['09', 'Error: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)'],
  ['0', '0.0'],
  ['-0', '0.0'],
  ['-0.0', '-0.0'],
  ['1.0//0', 'Error: float floor division by zero'],
  ['0.0/0', 'Error: float division by zero'],
  ['1/0.0', 'Error: float division by zero'],
  ['0/(-5)', '-0.0'],
  ['1//-0.0', 'Error: float floor division by zero'],
  ['7.5 // 2', '3.0'],
  ['-7.5 // 2', '-4.0'],
  ['7 // -2.0', '-4.0'],
  ['10**400/10**399', '10.0'],
  ['1/10**400', '0.0'],
  ['2**2000/3', 'Error: integer division result too large for a float'],
  ['2**2000 * 1.0', 'Error: int too large to convert to float'],
  ['2**2000 // 2**1999', '2.0'],
  ['2**1023 * 2 * 1.0', 'Error: int too large to convert to float'],
  ['2**1024 - 2**970 - 1', '1.7976931348623157e+308'],
  ['2**1024 - 2**970', 'Error: int too large to convert to float'],
  ['123456789012345678901234567890', '1.2345678901234568e+29'],
  ['0.1 + 0.2', '0.3'],
  ['1.005', '1.0'],
  ['0.375', '0.38'],
  ['100 * 1.1', '110.0'],
  ['19.99 * 3 - 0.01', '59.96'],
  ['1.05 ** 3 * 1000', '1157.63'],
  ['2 ** 0.5', '1.41'],
  ['10 ** -5', '0.0'],
  ['(-2) ** 3', '-8.0'],
  ['(-2.0) ** 3', '-8.0'],
  ['(-2) ** -3', '-0.12'],
  ['(-1) ** 0.5', "Error: float() argument must be a string or a real number, not 'complex'"],
  ['(-8) ** (1/3)', "Error: float() argument must be a string or a real number, not 'complex'"],
  ['0 ** 0', '1.0'],
  ['0.0 ** 0', '1.0'],
  ['0 ** 0.5', '0.0'],
  ['0.0 ** -1', 'Error: 0.0 cannot be raised to a negative power'],
  ['10.0 ** 309', "Error: (34, 'Numerical result out of range')"],
  ['(-10.0) ** 309', "Error: (34, 'Numerical result out of range')"],
  ['2.0 ** -1080', '0.0'],
  ['(10**308*10.0)', 'inf'],
  ['10**308*10.0 - 10**308*10.0', 'nan'],
  ['(10**308*10.0) // 1', 'nan'],
  ['-(10**308*10.0)', '-inf'],
  ['...', "Error: float() argument must be a string or a real number, not 'ellipsis'"],
  ['(...)', "Error: float() argument must be a string or a real number, not 'ellipsis'"],
  ['... + 1', "Error: unsupported operand type(s) for +: 'ellipsis' and 'int'"],
  ['-...', "Error: bad operand type for unary -: 'ellipsis'"],
  ['()()', "Error: 'tuple' object is not callable"],
  ['() + ()', "Error: float() argument must be a string or a real number, not 'tuple'"],
  ['() * 5', "Error: float() argument must be a string or a real number, not 'tuple'"],
  ['() + 1', 'Error: can only concatenate tuple (not "int") to tuple'],
  ['1 + ()', "Error: unsupported operand type(s) for +: 'int' and 'tuple'"],
  ['() * ()', "Error: can't multiply sequence by non-int of type 'tuple'"],
  ['() * 1.0', "Error: can't multiply sequence by non-int of type 'float'"],
  ['() * (2**63)', "Error: cannot fit 'int' into an index-sized integer"],
  ['() * (2**63 - 1)', "Error: float() argument must be a string or a real number, not 'tuple'"],
  ['-()', "Error: bad operand type for unary -: 'tuple'"],
  ['+()', "Error: bad operand type for unary +: 'tuple'"],
  ['() ** 2', "Error: unsupported operand type(s) for ** or pow(): 'tuple' and 'int'"],
  ['() / 1', "Error: unsupported operand type(s) for /: 'tuple' and 'int'"],
  ['() // 1', "Error: unsupported operand type(s) for //: 'tuple' and 'int'"],
  ['() - ()', "Error: unsupported operand type(s) for -: 'tuple' and 'tuple'"],
  ['1(2)', "Error: 'int' object is not callable"],
  ['1.5(2)', "Error: 'float' object is not callable"],
  ['(1)(*2)', 'Error: 1 argument after * must be an iterable, not int'],
  ['(1)(**2)', 'Error: 1 argument after ** must be a mapping, not int'],
  ['(1)(*())', "Error: 'int' object is not callable"],
  ['()(*1)', 'Error: () argument after * must be an iterable, not int'],
  ['(1)(1/0)', 'Error: division by zero'],
  ['(1)(2)(3)', "Error: 'int' object is not callable"],
  ['(10**5000)(*1)', 'Error: Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit'],
  ['((-8)**0.5)(*1)', 'Error: (1.7319121124709868e-16+2.8284271247461903j) argument after * must be an iterable, not int'],
  ['((-1)**0.5) // 1', "Error: unsupported operand type(s) for //: 'complex' and 'int'"],
  ['1/((-8)**0.5*0)', 'Error: complex division by zero'],
  ['0**((-1)**0.5)', 'Error: 0.0 to a negative or complex power'],
  ['((-1)**0.5)**(10**308*10.0)', 'Error: 0.0 to a negative or complex power'],
  ['1 2 (', "Error: '(' was never closed (<string>, line 1)"],
  ['(1 2', "Error: '(' was never closed (<string>, line 1)"],
  ['(1 2)', 'Error: invalid syntax. Perhaps you forgot a comma? (<string>, line 1)'],
  ['((1 2)', 'Error: invalid syntax. Perhaps you forgot a comma? (<string>, line 1)'],
  ['1 + (2 3) + (', 'Error: invalid syntax. Perhaps you forgot a comma? (<string>, line 1)'],
  ['(*1)', 'Error: cannot use starred expression here (<string>, line 1)'],
  ['((*1)', 'Error: cannot use starred expression here (<string>, line 1)'],
  ['(**1)', 'Error: cannot use double starred expression here (<string>, line 1)'],
  ['*1', 'Error: invalid syntax (<string>, line 1)'],
  ['**1', 'Error: invalid syntax (<string>, line 1)'],
  ['(*)', 'Error: invalid syntax (<string>, line 1)'],
  ['(**)', 'Error: invalid syntax (<string>, line 1)'],
  ['(1)(*2 3)', 'Error: invalid syntax. Perhaps you forgot a comma? (<string>, line 1)'],
  ['(1)(**1 *2)', 'Error: 1 argument after ** must be a mapping, not int'],
  ['(1).(', 'Error: invalid syntax (<string>, line 1)'],
  ['1..5', 'Error: invalid syntax (<string>, line 1)'],
  ['1 .5', 'Error: invalid syntax (<string>, line 1)'],
  ['1...', 'Error: invalid syntax (<string>, line 1)'],
  ['....', 'Error: invalid syntax (<string>, line 1)'],
  ['(1 ...)', 'Error: invalid syntax. Perhaps you forgot a comma? (<string>, line 1)'],
  ['(... ...)', 'Error: invalid syntax. Perhaps you forgot a comma? (<string>, line 1)'],
  ['... ...', 'Error: invalid syntax (<string>, line 1)'],
  ['(1 .)', 'Error: invalid syntax (<string>, line 1)'],
  ['-', 'Error: invalid syntax (<string>, line 1)'],
  ['+(', "Error: '(' was never closed (<string>, line 1)"],
  ['1(1 2', "Error: '(' was never closed (<string>, line 1)"],
  ['1 2 3 4 (', 'Error: invalid syntax (<string>, line 1)'],
  ['(1))', "Error: unmatched ')' (<string>, line 1)"],
  ['1)(', "Error: unmatched ')' (<string>, line 1)"],
  ['(1 2 01', 'Error: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)'],
  ['(*1 01)', 'Error: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)'],
];

const DEEP: readonly (readonly [string, string, string])[] = [
  ['200 nested parentheses', `${'('.repeat(200)}1${')'.repeat(200)}`, '1.0'],
  ['201 nested parentheses', `${'('.repeat(201)}1${')'.repeat(201)}`, 'Error: too many nested parentheses (<string>, line 1)'],
  ['4300-digit int', '1'.repeat(4300), 'Error: int too large to convert to float'],
  [
    '4301-digit int',
    '1'.repeat(4301),
    'Error: Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() ' +
      'to increase the limit - Consider hexadecimal for huge integer literals to avoid decimal conversion limits. (<string>, line 1)',
  ],
  ['4301-digit int then a tokenizer error', `${'1'.repeat(4301)})`, "Error: unmatched ')' (<string>, line 1)"],
  ['5000 zeros', '0'.repeat(5000), '0.0'],
  ['400-digit float literal', `${'1'.repeat(400)}.`, 'inf'],
  ['2972 unary minus', `${'-'.repeat(2972)}1`, '1.0'],
  ['2973 unary minus', `${'-'.repeat(2973)}1`, 'Error: maximum recursion depth exceeded during compilation'],
  ['5975 unary minus', `${'-'.repeat(5975)}1`, 'Error: maximum recursion depth exceeded during compilation'],
  ['5976 unary minus (parser stack)', `${'-'.repeat(5976)}1`, 'Error: '],
  ['2973 powers', Array(2973).fill('1').join('**'), '1.0'],
  ['2974 powers', Array(2974).fill('1').join('**'), 'Error: maximum recursion depth exceeded during compilation'],
  ['2989 powers (parser stack)', Array(2989).fill('1').join('**'), 'Error: '],
  ['2973 terms', Array(2973).fill('1').join('+'), '2973.0'],
  ['2974 terms', Array(2974).fill('1').join('+'), 'Error: maximum recursion depth exceeded during compilation'],
];

const NON_STRINGS: readonly (readonly [string, PyValue, string])[] = [
  ['None', null, "Error: 'NoneType' object is not iterable"],
  ['an int', 5n, "Error: 'int' object is not iterable"],
  ['a float', 2.5, "Error: 'float' object is not iterable"],
  ['a bool', true, "Error: 'bool' object is not iterable"],
  ['a list of valid characters', ['1'], 'Error: eval() arg 1 must be a string, bytes or code object'],
  ['a list of substrings of the allowed characters', ['9+-', '2'], 'Error: eval() arg 1 must be a string, bytes or code object'],
  ['a list with a multi-character non-substring', ['1+'], 'Error: invalid characters in expression'],
  ['an empty list', [], 'Error: eval() arg 1 must be a string, bytes or code object'],
  ['a list with an invalid character', ['1', 'x'], 'Error: invalid characters in expression'],
  ['a list with a non-string', [1n], "Error: 'in <string>' requires string as left operand, not int"],
  ['a dict with valid keys', new Map([['1', 2n]]), 'Error: eval() arg 1 must be a string, bytes or code object'],
];

describe('calculate (τ-bench Calculate.invoke)', () => {
  it('is the Calculate tool of each domain', () => {
    expect(calculate).toMatchObject({
      name: 'calculate',
      className: 'Calculate',
      module: 'tau_bench.envs.retail.tools.calculate',
      params: ['expression'],
      writes: false,
    });
    expect(makeCalculate('airline').module).toBe('tau_bench.envs.airline.tools.calculate');
  });

  it.each(EXPRESSIONS)('%j → %s', (expression, observation) => {
    expect(observe(expression)).toBe(observation);
  });

  it.each(DEEP)('%s', (_name, expression, observation) => {
    expect(observe(expression)).toBe(observation);
  });

  it.each(NON_STRINGS)('expression is %s', (_name, expression, observation) => {
    expect(observe(expression)).toBe(observation);
  });

  it('binds its one argument like Python', () => {
    const call = (kwargs: [string, PyValue][]) => executeTool(EMPTY_DB, calculate, new Map(kwargs)).observation;
    expect(call([])).toBe("Error: Calculate.invoke() missing 1 required positional argument: 'expression'");
    expect(call([['expr', '1']])).toBe("Error: Calculate.invoke() got an unexpected keyword argument 'expr'");
    expect(call([['data', '1']])).toBe("Error: tau_bench.envs.retail.tools.calculate.Calculate.invoke() got multiple values for keyword argument 'data'");
  });

  it('rejects characters outside the filter before evaluating', () => {
    for (const s of ['1e5', '2%3', '(1,2)', '1\t+ 1', 'abs(1)', '1_000', '２', '1 + 1\n']) expect(observe(s)).toBe('Error: invalid characters in expression');
  });
});
