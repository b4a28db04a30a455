import { PyException } from '../../../py/errors';
import { evalPyExpression, pyFloat } from '../../../py/expr';
import { roundFloat2 } from '../../../py/ops';
import type { TValue } from '../../../py/pydantic';
import { reprFloat } from '../../../py/repr';
import { has, items, valueError } from './py-attrs';

// Python parity: τ²'s calculate tool (airline, retail) — `char in "..."`, then str(round(float(eval(expression)), 2)).
export function calculate(expression: TValue): string {
  // `in` on a str: a non-str item (of a list or dict argument) raises TypeError, a longer str is a substring test.
  for (const ch of items(expression)) if (!has('0123456789+-*/(). ', ch)) throw valueError('Invalid characters in expression');
  if (typeof expression !== 'string') throw new PyException('TypeError', 'eval() arg 1 must be a string, bytes or code object');
  return reprFloat(roundFloat2(pyFloat(evalPyExpression(expression))));
}
