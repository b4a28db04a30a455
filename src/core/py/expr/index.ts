/**
 * `eval()` of the Python expressions that τ-bench's `calculate` lets through its character
 * filter (digits, `+ - * / ( ) .` and space), with CPython 3.11's results and exception
 * texts: ints are unbounded, `/` is true division, `//` floors, `**` is right-associative
 * and binds tighter than unary minus, and syntax errors carry CPython's messages.
 *
 * Syntax errors follow CPython 3.11's two-pass PEG parser: the tokenizer errors (leading
 * zeros, unmatched or too deeply nested parentheses), the "'(' was never closed" raised
 * when the parser reaches the end inside parentheses, the specialised messages of the
 * second pass ("Perhaps you forgot a comma?", starred groups) and the generic
 * "invalid syntax". The rules below mirror the grammar's alternatives, their order, the
 * memoised rules and the parser's stack depth, because all of these decide which error
 * wins. Only the grammar reachable from these characters is implemented.
 *
 * Sections: `values.ts` (the values and their arithmetic), `tokenizer.ts`, `parser.ts`,
 * `evaluate.ts` (compile-time depth limit and evaluation).
 */
export { evalPyExpression } from './evaluate';
export {
  ELLIPSIS,
  EMPTY_TUPLE,
  PyComplex,
  exprTypeName,
  pyBinaryOp,
  pyFloat,
  pyUnaryOp,
  strExprValue,
  type BinaryOp,
  type ExprValue,
  type PyEllipsis,
  type PyTuple,
  type UnaryOp,
} from './values';
