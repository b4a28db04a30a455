import type { Domain } from '../../data/db';
import { PyException, typeError } from '../../../py/errors';
import { evalPyExpression, pyFloat } from '../../../py/expr';
import { contains, iterate, roundFloat2 } from '../../../py/ops';
import { reprFloat } from '../../../py/repr';
import { defineTool } from '../tool';

const ALLOWED_CHARS = '0123456789+-*/(). ';

export const makeCalculate = (domain: Domain) =>
  defineTool({
    name: 'calculate',
    className: 'Calculate',
    module: `tau_bench.envs.${domain}.tools.calculate`,
    params: ['expression'],
    writes: false,
    invoke: (_data, { expression }) => {
      // Python parity: Calculate.invoke — `char in "..."` is a substring test, and iterating
      // a non-string argument raises outside the try block.
      for (const char of iterate(expression)) {
        if (!contains(ALLOWED_CHARS, char)) return 'Error: invalid characters in expression';
      }
      try {
        if (typeof expression !== 'string') throw typeError('eval() arg 1 must be a string, bytes or code object');
        return reprFloat(roundFloat2(pyFloat(evalPyExpression(expression))));
      } catch (e) {
        if (e instanceof PyException) return `Error: ${e.text}`;
        throw e;
      }
    },
  });
