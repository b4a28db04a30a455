/** Compilation (the AST optimiser's depth limit) and evaluation of a parsed expression. */
import { PyException } from '../errors';
import { Parser, ParseStop, type Node } from './parser';
import { tokenize } from './tokenizer';
import { exprTypeName, isTuple, memoryError, pyBinaryOp, pyUnaryOp, strExprValue, typeErr, type ExprValue } from './values';
// ---------------------------------------------------------------------------------------
// Compilation and evaluation

/**
 * CPython's compiler fails with RecursionError once an expression nests deeper than
 * 3000 − 3 × (Python frames at the call). τ-bench evaluates `calculate` 9 frames deep
 * in its worker threads (threading bootstrap ×3, executor worker ×2, _run, solve, step,
 * invoke), which leaves 2973 levels.
 */
// Python parity: ast_opt.c recursion limit (COMPILER_STACK_FRAME_SCALE = 3), τ-bench call depth.
const MAX_EXPR_DEPTH = 3000 - 3 * 9;

function depth(root: Node): number {
  let max = 0;
  const stack: [Node, number][] = [[root, 1]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, d] = item;
    max = Math.max(max, d);
    switch (node.k) {
      case 'unary':
        stack.push([node.operand, d + 1]);
        break;
      case 'binop':
        stack.push([node.left, d + 1], [node.right, d + 1]);
        break;
      case 'call':
        stack.push([node.func, d + 1]);
        // A `**` argument is a keyword node, which the AST optimizer does not count.
        if (node.arg) stack.push(node.arg.k === 'kwstarred' ? [node.arg.value, d + 1] : [node.arg, d + 1]);
        break;
      case 'starred':
      case 'kwstarred':
        stack.push([node.value, d + 1]);
        break;
      case 'const':
        break;
    }
  }
  return max;
}

function syntaxError(message: string, lineno: number): PyException {
  return new PyException('SyntaxError', `${message} (<string>, line ${lineno})`);
}

// Python parity: _PyPegen_run_parser and _PyPegen_set_syntax_error (CPython 3.11).
function parse(src: string): Node {
  const input = tokenize(src);
  const lineno = src.length === 0 ? 0 : 1;
  const parser = new Parser(input);
  let stop: ParseStop;
  try {
    const tree = parser.evalRule();
    if (tree) return tree;
    parser.startErrorPass();
    parser.evalRule();
    stop = new ParseStop('parser', 'invalid syntax');
  } catch (e) {
    if (!(e instanceof ParseStop)) throw e;
    stop = e;
  }
  if (stop.origin === 'memory') throw memoryError();
  // A parser error gives way to a tokenizer error further on in the source.
  const message = stop.origin === 'parser' && input.error !== null ? input.error : stop.message;
  throw syntaxError(message, lineno);
}

function callError(func: ExprValue, arg: Node | null): never {
  if (arg?.k === 'starred') {
    const v = evaluate(arg.value);
    // Python parity: check_args_iterable (CALL_FUNCTION_EX).
    if (!isTuple(v)) throw typeErr(`${strExprValue(func)} argument after * must be an iterable, not ${exprTypeName(v)}`);
  } else if (arg?.k === 'kwstarred') {
    const v = evaluate(arg.value);
    // Python parity: format_kwargs_error (DICT_MERGE).
    throw typeErr(`${strExprValue(func)} argument after ** must be a mapping, not ${exprTypeName(v)}`);
  } else if (arg) evaluate(arg);
  throw typeErr(`'${exprTypeName(func)}' object is not callable`);
}

function evaluate(node: Node): ExprValue {
  switch (node.k) {
    case 'const':
      return node.v;
    case 'unary':
      return pyUnaryOp(node.op, evaluate(node.operand));
    case 'binop': {
      const a = evaluate(node.left);
      return pyBinaryOp(node.op, a, evaluate(node.right));
    }
    case 'call':
      return callError(evaluate(node.func), node.arg);
    case 'starred':
    case 'kwstarred':
      throw new Error('starred expression outside a call');
  }
}

/**
 * `eval(source, {"__builtins__": None}, {})` for a source made of digits, `+ - * / ( ) .`
 * and spaces. Raises PyException with CPython 3.11's exception text.
 */
// Python parity: builtin eval (leading spaces and tabs stripped), compile, ceval.
export function evalPyExpression(source: string): ExprValue {
  let start = 0;
  while (source[start] === ' ' || source[start] === '\t') start++;
  try {
    const tree = parse(source.slice(start));
    if (depth(tree) > MAX_EXPR_DEPTH) throw new PyException('RecursionError', 'maximum recursion depth exceeded during compilation');
    return evaluate(tree);
  } catch (e) {
    // Near CPython's own nesting limits (200 parentheses) a cold JS engine can run out of
    // stack; answer like CPython's parser does for input nested too deeply for it.
    if (e instanceof Error && /call stack|too much recursion/i.test(e.message)) throw memoryError();
    throw e;
  }
}
