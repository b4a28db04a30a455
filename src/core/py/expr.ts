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
 */
import { PyException, type PyExceptionType } from './errors';
import { bitLength, powCorrectlyRounded, ratioToDouble } from './float-math';
import { reprFloat } from './repr';

export class PyComplex {
  constructor(
    readonly re: number,
    readonly im: number,
  ) {}
}

export interface PyTuple {
  readonly kind: 'tuple';
  readonly items: readonly ExprValue[];
}

export interface PyEllipsis {
  readonly kind: 'ellipsis';
}

/** Values an expression can produce: int (bigint), float (number), complex, tuple, Ellipsis. */
export type ExprValue = bigint | number | PyComplex | PyTuple | PyEllipsis;

export const EMPTY_TUPLE: PyTuple = { kind: 'tuple', items: [] };
export const ELLIPSIS: PyEllipsis = { kind: 'ellipsis' };

export type BinaryOp = '+' | '-' | '*' | '/' | '//' | '**';
export type UnaryOp = '+' | '-';

export function exprTypeName(v: ExprValue): string {
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'float';
  if (v instanceof PyComplex) return 'complex';
  return v.kind;
}

// ---------------------------------------------------------------------------------------
// Numbers

// Python parity: sys.get_int_max_str_digits() default (CPython 3.11).
const MAX_STR_DIGITS = 4300;
// Guard against results no browser can hold (CPython would grind on for minutes).
const MAX_INT_BITS = 1 << 26;
const SSIZE_MAX = (1n << 63n) - 1n;

// PyExceptionType does not list MemoryError (raised by CPython's parser stack limit).
const MEMORY_ERROR: PyExceptionType = 'MemoryError';
const memoryError = (): PyException => new PyException(MEMORY_ERROR, '');
const typeErr = (text: string): PyException => new PyException('TypeError', text);
const zeroDiv = (text: string): PyException => new PyException('ZeroDivisionError', text);
const overflow = (text: string): PyException => new PyException('OverflowError', text);

// Python parity: PyLong_AsDouble.
function intToFloat(v: bigint): number {
  const x = Number(v);
  if (!Number.isFinite(x)) throw overflow('int too large to convert to float');
  return x;
}

const isReal = (v: ExprValue): v is bigint | number => typeof v === 'bigint' || typeof v === 'number';
const isNumber = (v: ExprValue): v is bigint | number | PyComplex => isReal(v) || v instanceof PyComplex;
const isTuple = (v: ExprValue): v is PyTuple => typeof v === 'object' && !(v instanceof PyComplex) && v.kind === 'tuple';
const toDouble = (v: bigint | number): number => (typeof v === 'bigint' ? intToFloat(v) : v);
const toComplex = (v: bigint | number | PyComplex): PyComplex => (v instanceof PyComplex ? v : new PyComplex(toDouble(v), 0));

function unsupported(op: string, a: ExprValue, b: ExprValue): PyException {
  return typeErr(`unsupported operand type(s) for ${op}: '${exprTypeName(a)}' and '${exprTypeName(b)}'`);
}

function guardBits(bits: bigint | number): void {
  if (bits > MAX_INT_BITS) throw memoryError();
}

// Python parity: long_true_divide (correctly rounded for any size).
function intTrueDivide(a: bigint, b: bigint): number {
  if (b === 0n) throw zeroDiv('division by zero');
  const negate = a < 0n !== b < 0n;
  const limit = 1n << 53n;
  const na = a < 0n ? -a : a;
  const nb = b < 0n ? -b : b;
  let r: number;
  if (na <= limit && nb <= limit) r = Number(na) / Number(nb);
  else {
    r = ratioToDouble(na, nb);
    if (r === Infinity) throw overflow('integer division result too large for a float');
  }
  return negate ? -r : r;
}

function intFloorDivide(a: bigint, b: bigint): bigint {
  if (b === 0n) throw zeroDiv('integer division or modulo by zero');
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

// Python parity: float_floor_div / _float_div_mod.
function floatFloorDivide(vx: number, wx: number): number {
  if (wx === 0) throw zeroDiv('float floor division by zero');
  const mod = vx % wx;
  let div = (vx - mod) / wx;
  // C truth tests: NaN counts as nonzero.
  if (mod !== 0 && wx < 0 !== mod < 0) div -= 1.0;
  if (div !== 0) {
    let floordiv = Math.floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
    return floordiv;
  }
  const q = vx / wx;
  return q < 0 || Object.is(q, -0) ? -0 : 0;
}

const isOddInteger = (x: number): boolean => Math.abs(x) % 2 === 1;

// Python parity: float_pow (CPython 3.11), with libm pow() correctly rounded.
function floatPow(v: bigint | number, w: bigint | number): number | PyComplex {
  let iv = toDouble(v);
  const iw = toDouble(w);
  if (iw === 0) return 1.0;
  if (Number.isNaN(iv)) return iv;
  if (Number.isNaN(iw)) return iv === 1.0 ? 1.0 : iw;
  if (!Number.isFinite(iw)) {
    iv = Math.abs(iv);
    if (iv === 1.0) return 1.0;
    if (iw > 0 === iv > 1.0) return Math.abs(iw);
    return 0.0;
  }
  if (!Number.isFinite(iv)) {
    const odd = isOddInteger(iw);
    if (iw > 0) return odd ? iv : Math.abs(iv);
    return odd ? (iv < 0 ? -0 : 0) : 0.0;
  }
  if (iv === 0) {
    if (iw < 0) throw zeroDiv('0.0 cannot be raised to a negative power');
    return isOddInteger(iw) ? iv : 0.0;
  }
  let negate = false;
  if (iv < 0) {
    if (iw !== Math.floor(iw)) return complexPow(new PyComplex(iv, 0), new PyComplex(iw, 0));
    iv = -iv;
    negate = isOddInteger(iw);
  }
  if (iv === 1.0) return negate ? -1.0 : 1.0;
  const ix = powCorrectlyRounded(iv, iw);
  // Python parity: _Py_ADJUST_ERANGE1 turns an infinite pow() result into errno ERANGE.
  if (!Number.isFinite(ix)) throw overflow("(34, 'Numerical result out of range')");
  return negate ? -ix : ix;
}

// Python parity: _Py_c_quot (errno EDOM is reported as null).
function complexQuotient(a: PyComplex, b: PyComplex): PyComplex | null {
  const absRe = Math.abs(b.re);
  const absIm = Math.abs(b.im);
  if (absRe >= absIm) {
    if (absRe === 0) return null;
    const ratio = b.im / b.re;
    const denom = b.re + b.im * ratio;
    return new PyComplex((a.re + a.im * ratio) / denom, (a.im - a.re * ratio) / denom);
  }
  if (absIm >= absRe) {
    const ratio = b.re / b.im;
    const denom = b.re * ratio + b.im;
    return new PyComplex((a.re * ratio + a.im) / denom, (a.im * ratio - a.re) / denom);
  }
  return new PyComplex(NaN, NaN);
}

const complexProduct = (a: PyComplex, b: PyComplex): PyComplex => new PyComplex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);

/** C99 pow() for x >= 0 (the modulus in _Py_c_pow). */
function libmPow(x: number, y: number): number {
  if (y === 0 || x === 1) return 1;
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (!Number.isFinite(y)) return x < 1 === y > 0 ? 0 : Infinity;
  if (x === 0) return y > 0 ? 0 : Infinity;
  if (x === Infinity) return y > 0 ? Infinity : 0;
  return powCorrectlyRounded(x, y);
}

// Python parity: complex_pow with c_powi / _Py_c_pow and the errno checks (CPython 3.11).
// The trigonometric parts use JS Math, so the last digits of complex results may differ.
function complexPow(a: PyComplex, b: PyComplex): PyComplex {
  let edom = false;
  let r: PyComplex;
  if (b.im === 0 && b.re === Math.floor(b.re) && Math.abs(b.re) <= 100) {
    const n = b.re;
    let acc = new PyComplex(1, 0);
    let p = a;
    for (let mask = 1, k = Math.abs(n); k >= mask; mask *= 2) {
      if (Math.floor(k / mask) % 2 === 1) acc = complexProduct(acc, p);
      p = complexProduct(p, p);
    }
    if (n > 0) r = acc;
    else {
      const q = complexQuotient(new PyComplex(1, 0), acc);
      if (q === null) {
        edom = true;
        r = new PyComplex(0, 0);
      } else r = q;
    }
  } else if (b.re === 0 && b.im === 0) r = new PyComplex(1, 0);
  else if (a.re === 0 && a.im === 0) {
    if (b.im !== 0 || b.re < 0) edom = true;
    r = new PyComplex(0, 0);
  } else {
    const vabs = Math.hypot(a.re, a.im);
    let len = libmPow(vabs, b.re);
    const at = Math.atan2(a.im, a.re);
    let phase = at * b.re;
    if (b.im !== 0) {
      len /= Math.exp(at * b.im);
      phase += b.im * Math.log(vabs);
    }
    // glibc's cos/sin set EDOM for infinite arguments.
    if (!Number.isFinite(phase) && !Number.isNaN(phase)) edom = true;
    r = new PyComplex(len * Math.cos(phase), len * Math.sin(phase));
  }
  if (edom) throw zeroDiv('0.0 to a negative or complex power');
  if (!Number.isFinite(r.re) && !Number.isNaN(r.re)) throw overflow('complex exponentiation');
  if (!Number.isFinite(r.im) && !Number.isNaN(r.im)) throw overflow('complex exponentiation');
  return r;
}

// Python parity: sequence_repeat via PyNumber_AsSsize_t (tuples here are always empty).
function repeatTuple(seq: PyTuple, n: ExprValue): PyTuple {
  if (typeof n !== 'bigint') throw typeErr(`can't multiply sequence by non-int of type '${exprTypeName(n)}'`);
  if (n > SSIZE_MAX || n < -SSIZE_MAX - 1n) throw overflow("cannot fit 'int' into an index-sized integer");
  if (n <= 0n || seq.items.length === 0) return EMPTY_TUPLE;
  guardBits(BigInt(seq.items.length) * n);
  const items: ExprValue[] = [];
  for (let i = 0n; i < n; i++) items.push(...seq.items);
  return { kind: 'tuple', items };
}

/** Python's binary operators on these values (PyNumber_Add etc.). */
export function pyBinaryOp(op: BinaryOp, a: ExprValue, b: ExprValue): ExprValue {
  switch (op) {
    case '+':
      if (typeof a === 'bigint' && typeof b === 'bigint') return a + b;
      if (isReal(a) && isReal(b)) return toDouble(a) + toDouble(b);
      if (isNumber(a) && isNumber(b)) {
        const x = toComplex(a);
        const y = toComplex(b);
        return new PyComplex(x.re + y.re, x.im + y.im);
      }
      if (isTuple(a)) {
        if (isTuple(b)) return a.items.length === 0 ? b : b.items.length === 0 ? a : { kind: 'tuple', items: [...a.items, ...b.items] };
        throw typeErr(`can only concatenate tuple (not "${exprTypeName(b)}") to tuple`);
      }
      throw unsupported('+', a, b);
    case '-':
      if (typeof a === 'bigint' && typeof b === 'bigint') return a - b;
      if (isReal(a) && isReal(b)) return toDouble(a) - toDouble(b);
      if (isNumber(a) && isNumber(b)) {
        const x = toComplex(a);
        const y = toComplex(b);
        return new PyComplex(x.re - y.re, x.im - y.im);
      }
      throw unsupported('-', a, b);
    case '*':
      if (typeof a === 'bigint' && typeof b === 'bigint') {
        guardBits(bitLength(a) + bitLength(b));
        return a * b;
      }
      if (isReal(a) && isReal(b)) return toDouble(a) * toDouble(b);
      if (isNumber(a) && isNumber(b)) return complexProduct(toComplex(a), toComplex(b));
      if (isTuple(a)) return repeatTuple(a, b);
      if (isTuple(b)) return repeatTuple(b, a);
      throw unsupported('*', a, b);
    case '/':
      if (typeof a === 'bigint' && typeof b === 'bigint') return intTrueDivide(a, b);
      if (isReal(a) && isReal(b)) {
        const x = toDouble(a);
        const y = toDouble(b);
        if (y === 0) throw zeroDiv('float division by zero');
        return x / y;
      }
      if (isNumber(a) && isNumber(b)) {
        const q = complexQuotient(toComplex(a), toComplex(b));
        if (q === null) throw zeroDiv('complex division by zero');
        return q;
      }
      throw unsupported('/', a, b);
    case '//':
      if (typeof a === 'bigint' && typeof b === 'bigint') return intFloorDivide(a, b);
      if (isReal(a) && isReal(b)) return floatFloorDivide(toDouble(a), toDouble(b));
      throw unsupported('//', a, b);
    case '**':
      if (typeof a === 'bigint' && typeof b === 'bigint') {
        // Python parity: long_pow hands negative exponents to float_pow.
        if (b < 0n) return floatPow(a, b);
        if (a === 0n || a === 1n || b === 0n) return b === 0n ? 1n : a;
        if (a === -1n) return b % 2n === 0n ? 1n : -1n;
        guardBits(BigInt(bitLength(a) - 1) * b);
        return a ** b;
      }
      if (isReal(a) && isReal(b)) return floatPow(a, b);
      if (isNumber(a) && isNumber(b)) return complexPow(toComplex(a), toComplex(b));
      throw unsupported('** or pow()', a, b);
  }
}

/** Python's unary `+` and `-`. */
export function pyUnaryOp(op: UnaryOp, a: ExprValue): ExprValue {
  if (typeof a === 'bigint' || typeof a === 'number') return op === '-' ? -a : a;
  if (a instanceof PyComplex) return op === '-' ? new PyComplex(-a.re, -a.im) : a;
  throw typeErr(`bad operand type for unary ${op}: '${exprTypeName(a)}'`);
}

/** Python's `float(v)`. */
export function pyFloat(v: ExprValue): number {
  if (isReal(v)) return toDouble(v);
  throw typeErr(`float() argument must be a string or a real number, not '${exprTypeName(v)}'`);
}

// Python parity: PyOS_double_to_string(x, 'r', 0, flags without Py_DTSF_ADD_DOT_0).
function reprComplexPart(x: number, sign: boolean): string {
  const r = reprFloat(x);
  const s = r.endsWith('.0') ? r.slice(0, -2) : r;
  return sign && !s.startsWith('-') ? `+${s}` : s;
}

/** Python's `str(v)` (int → decimal with the 4300-digit limit, complex as `(a+bj)`). */
export function strExprValue(v: ExprValue): string {
  if (typeof v === 'bigint') {
    const s = v.toString();
    if (s.length - (v < 0n ? 1 : 0) > MAX_STR_DIGITS)
      throw new PyException(
        'ValueError',
        `Exceeds the limit (${MAX_STR_DIGITS} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit`,
      );
    return s;
  }
  if (typeof v === 'number') return reprFloat(v);
  if (v instanceof PyComplex) {
    // Python parity: complex_repr omits a +0.0 real part.
    if (v.re === 0 && !Object.is(v.re, -0)) return `${reprComplexPart(v.im, false)}j`;
    return `(${reprComplexPart(v.re, false)}${reprComplexPart(v.im, true)}j)`;
  }
  if (v.kind === 'ellipsis') return 'Ellipsis';
  return v.items.length === 1 ? `(${strExprValue(v.items[0]!)},)` : `(${v.items.map(strExprValue).join(', ')})`;
}

// ---------------------------------------------------------------------------------------
// Tokenizer (Parser/tokenizer.c, the part these characters reach)

// Python parity: MAXLEVEL in Parser/tokenizer.h.
const MAX_PAREN_LEVEL = 200;

type TokenType = 'NUMBER' | 'OP' | 'ENDMARKER' | 'EOF_IN_PAREN';
interface Token {
  readonly type: TokenType;
  readonly text: string;
  /** Parenthesis depth after the token, as CPython stores it in each token. */
  readonly level: number;
}
interface Tokens {
  readonly tokens: readonly Token[];
  /** The tokenizer's error, raised when the parser asks for token `tokens.length`. */
  readonly error: string | null;
}

const LEADING_ZEROS = 'leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers';

function tokenize(src: string): Tokens {
  const tokens: Token[] = [];
  let level = 0;
  let i = 0;
  const digit = (k: number): boolean => {
    const c = src.charCodeAt(k);
    return c >= 48 && c <= 57;
  };
  const digits = (): void => {
    while (digit(i)) i++;
  };
  for (;;) {
    while (src[i] === ' ') i++;
    if (i >= src.length) {
      tokens.push({ type: level > 0 ? 'EOF_IN_PAREN' : 'ENDMARKER', text: '', level });
      return { tokens, error: null };
    }
    const start = i;
    const c = src[i]!;
    if (c === '.' && !digit(i + 1)) {
      const ellipsis = src.startsWith('...', i);
      i += ellipsis ? 3 : 1;
      tokens.push({ type: 'OP', text: ellipsis ? '...' : '.', level });
    } else if (c === '.' || digit(i)) {
      if (c === '.') {
        i++;
        digits();
      } else if (c === '0') {
        while (src[i] === '0') i++;
        const nonzero = digit(i);
        digits();
        if (src[i] === '.') {
          i++;
          digits();
        } else if (nonzero) return { tokens, error: LEADING_ZEROS };
      } else {
        digits();
        if (src[i] === '.') {
          i++;
          digits();
        }
      }
      tokens.push({ type: 'NUMBER', text: src.slice(start, i), level });
    } else if (c === '(') {
      if (level >= MAX_PAREN_LEVEL) return { tokens, error: 'too many nested parentheses' };
      level++;
      i++;
      tokens.push({ type: 'OP', text: '(', level });
    } else if (c === ')') {
      if (level === 0) return { tokens, error: "unmatched ')'" };
      level--;
      i++;
      tokens.push({ type: 'OP', text: ')', level });
    } else if (c === '*' || c === '/') {
      const double = src[i + 1] === c;
      i += double ? 2 : 1;
      tokens.push({ type: 'OP', text: double ? c + c : c, level });
    } else if (c === '+' || c === '-') {
      i++;
      tokens.push({ type: 'OP', text: c, level });
    } else {
      throw new Error(`expression evaluator: unsupported character U+${c.charCodeAt(0).toString(16)}`);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Parser (Grammar/python.gram of CPython 3.11, rules reachable from `eval`)

type Node =
  | { readonly k: 'const'; readonly v: ExprValue }
  | { readonly k: 'unary'; readonly op: UnaryOp; readonly operand: Node }
  | { readonly k: 'binop'; readonly op: BinaryOp; readonly left: Node; readonly right: Node }
  | { readonly k: 'call'; readonly func: Node; readonly arg: Node | null }
  | { readonly k: 'starred'; readonly value: Node }
  | { readonly k: 'kwstarred'; readonly value: Node };

// Python parity: MAXSTACK in Parser/parser.c (CPython 3.11).
const MAX_STACK = 6000;

type Origin = 'tokenizer' | 'parser' | 'memory';
class ParseStop {
  constructor(
    readonly origin: Origin,
    readonly message: string,
  ) {}
}

const Rule = {
  Expression: 0,
  Disjunction: 1,
  Conjunction: 2,
  Inversion: 3,
  Factor: 4,
  AwaitPrimary: 5,
  Arguments: 6,
  InvalidNamedExpression: 7,
  BitwiseOr: 8,
  BitwiseXor: 9,
  BitwiseAnd: 10,
  ShiftExpr: 11,
  Sum: 12,
  Term: 13,
  Primary: 14,
} as const;
type Rule = (typeof Rule)[keyof typeof Rule];
const RULE_COUNT = 15;

type BinaryRule = typeof Rule.BitwiseOr | typeof Rule.BitwiseXor | typeof Rule.BitwiseAnd | typeof Rule.ShiftExpr | typeof Rule.Sum | typeof Rule.Term;
type LeftRecRule = BinaryRule | typeof Rule.Primary;

/** The left-recursive binary rules: their operators (in alternative order) and operand rule. */
const BINARY_RULES: Readonly<Record<BinaryRule, { readonly ops: readonly string[]; readonly operand: LeftRecRule | typeof Rule.Factor }>> = {
  [Rule.BitwiseOr]: { ops: ['|'], operand: Rule.BitwiseXor },
  [Rule.BitwiseXor]: { ops: ['^'], operand: Rule.BitwiseAnd },
  [Rule.BitwiseAnd]: { ops: ['&'], operand: Rule.ShiftExpr },
  [Rule.ShiftExpr]: { ops: ['<<', '>>'], operand: Rule.Sum },
  [Rule.Sum]: { ops: ['+', '-'], operand: Rule.Term },
  [Rule.Term]: { ops: ['*', '/', '//', '%', '@'], operand: Rule.Factor },
};

interface Memo {
  readonly node: Node | null;
  readonly end: number;
}

class Parser {
  mark = 0;
  private level = 0;
  private callInvalid = false;
  private memo = new Map<number, Memo>();

  constructor(private readonly input: Tokens) {}

  startErrorPass(): void {
    this.mark = 0;
    this.level = 0;
    this.memo.clear();
    this.callInvalid = true;
  }

  // --- token access -------------------------------------------------------------------

  private tok(pos: number): Token {
    const t = this.input.tokens[pos];
    if (t === undefined) throw new ParseStop('tokenizer', this.input.error ?? 'invalid syntax');
    // Python parity: _Pypegen_tokenizer_error for E_EOF inside parentheses.
    if (t.type === 'EOF_IN_PAREN') throw new ParseStop('tokenizer', "'(' was never closed");
    return t;
  }

  private peek(): Token {
    return this.tok(this.mark);
  }

  private expect(op: string): boolean {
    const t = this.peek();
    if (t.type === 'OP' && t.text === op) {
      this.mark++;
      return true;
    }
    return false;
  }

  /** A NAME, keyword, STRING, AWAIT or other token that never occurs here. */
  private absent(): false {
    this.peek();
    return false;
  }

  private enter(): void {
    if (this.level++ === MAX_STACK) throw new ParseStop('memory', '');
  }

  private leave(): void {
    this.level--;
  }

  /** Helper rules (_loop/_tmp/...) that only test for absent tokens, `depth` calls deep. */
  private probe(depth: number): void {
    if (this.level + depth > MAX_STACK) throw new ParseStop('memory', '');
    this.peek();
  }

  private memoGet(rule: Rule): Memo | undefined {
    this.peek();
    const hit = this.memo.get(this.mark * RULE_COUNT + rule);
    if (hit !== undefined) this.mark = hit.end;
    return hit;
  }

  private memoSet(rule: Rule, pos: number, node: Node | null): void {
    this.memo.set(pos * RULE_COUNT + rule, { node, end: this.mark });
  }

  private syntax(message: string): never {
    throw new ParseStop('parser', message);
  }

  // --- rules ------------------------------------------------------------------------

  /** eval: expressions NEWLINE* ENDMARKER */
  evalRule(): Node | null {
    this.enter();
    const m = this.mark;
    const a = this.expressions();
    if (a) {
      this.probe(1);
      if (this.peek().type === 'ENDMARKER') {
        this.mark++;
        this.leave();
        return a;
      }
    }
    this.mark = m;
    this.leave();
    return null;
  }

  private expressions(): Node | null {
    this.enter();
    this.peek();
    const m = this.mark;
    if (this.expression()) this.probe(2);
    this.mark = m;
    if (this.expression()) this.expect(',');
    this.mark = m;
    const a = this.expression();
    if (!a) this.mark = m;
    this.leave();
    return a;
  }

  private expression(): Node | null {
    this.enter();
    const hit = this.memoGet(Rule.Expression);
    if (hit) {
      this.leave();
      return hit.node;
    }
    const m = this.mark;
    if (this.callInvalid) {
      this.invalidExpression();
      this.mark = m;
      this.enter(); // invalid_legacy_expression: NAME ...
      this.absent();
      this.leave();
      this.mark = m;
    }
    if (this.disjunction()) this.absent(); // 'if'
    this.mark = m;
    let res = this.disjunction();
    if (!res) {
      this.mark = m;
      this.lambdef();
      this.mark = m;
      res = null;
    }
    this.memoSet(Rule.Expression, m, res);
    this.leave();
    return res;
  }

  private invalidExpression(): void {
    this.enter();
    const m = this.mark;
    this.probe(1); // !(NAME STRING | SOFT_KEYWORD)
    if (this.disjunction() && this.expressionWithoutInvalid()) {
      const last = this.input.tokens[this.mark - 1]!;
      if (last.level !== 0) this.syntax('invalid syntax. Perhaps you forgot a comma?');
      this.leave();
      return;
    }
    this.mark = m;
    if (this.disjunction()) this.absent(); // 'if'
    this.mark = m;
    this.leave();
  }

  private expressionWithoutInvalid(): Node | null {
    const prev = this.callInvalid;
    this.callInvalid = false;
    this.enter();
    this.peek();
    const m = this.mark;
    if (this.disjunction()) this.absent();
    this.mark = m;
    const res = this.disjunction();
    if (!res) {
      this.mark = m;
      this.lambdef();
      this.mark = m;
    }
    this.callInvalid = prev;
    this.leave();
    return res;
  }

  private lambdef(): void {
    this.enter();
    this.absent();
    this.leave();
  }

  /** disjunction: conjunction ('or' conjunction)+ | conjunction */
  private disjunction(): Node | null {
    this.enter();
    const hit = this.memoGet(Rule.Disjunction);
    if (hit) {
      this.leave();
      return hit.node;
    }
    const m = this.mark;
    if (this.conjunction()) this.probe(2);
    this.mark = m;
    const res = this.conjunction();
    if (!res) this.mark = m;
    this.memoSet(Rule.Disjunction, m, res);
    this.leave();
    return res;
  }

  /** conjunction: inversion ('and' inversion)+ | inversion */
  private conjunction(): Node | null {
    this.enter();
    const hit = this.memoGet(Rule.Conjunction);
    if (hit) {
      this.leave();
      return hit.node;
    }
    const m = this.mark;
    if (this.inversion()) this.probe(2);
    this.mark = m;
    const res = this.inversion();
    if (!res) this.mark = m;
    this.memoSet(Rule.Conjunction, m, res);
    this.leave();
    return res;
  }

  private inversion(): Node | null {
    this.enter();
    const hit = this.memoGet(Rule.Inversion);
    if (hit) {
      this.leave();
      return hit.node;
    }
    const m = this.mark;
    this.absent(); // 'not'
    const res = this.comparison();
    if (!res) this.mark = m;
    this.memoSet(Rule.Inversion, m, res);
    this.leave();
    return res;
  }

  private comparison(): Node | null {
    this.enter();
    this.peek();
    const m = this.mark;
    if (this.bitwiseOr()) this.probe(3); // compare_op_bitwise_or_pair+
    this.mark = m;
    const res = this.bitwiseOr();
    if (!res) this.mark = m;
    this.leave();
    return res;
  }

  /**
   * A left-recursive rule (CPython grows the seed through its memo): the rule's body is
   * re-run while it extends the match, its recursive reference reading the memo entry.
   */
  private leftRec(rule: LeftRecRule): Node | null {
    this.enter();
    const hit = this.memoGet(rule);
    if (hit) {
      this.leave();
      return hit.node;
    }
    const m = this.mark;
    let res: Node | null = null;
    let resmark = m;
    for (;;) {
      this.memoSet(rule, m, res);
      this.mark = m;
      const r = rule === Rule.Primary ? this.primaryRaw() : this.binaryRaw(rule);
      if (r === null || this.mark <= resmark) break;
      resmark = this.mark;
      res = r;
    }
    this.mark = resmark;
    this.leave();
    return res;
  }

  /** Body of a left-recursive binary rule: `self op operand | ... | operand`. */
  private binaryRaw(rule: BinaryRule): Node | null {
    const { ops, operand } = BINARY_RULES[rule];
    this.enter();
    this.peek();
    const m = this.mark;
    for (const op of ops) {
      const a = this.leftRec(rule);
      if (a && this.expect(op)) {
        const b = operand === Rule.Factor ? this.factor() : this.leftRec(operand);
        if (b) {
          this.leave();
          return { k: 'binop', op: op as BinaryOp, left: a, right: b };
        }
      }
      this.mark = m;
    }
    const res = operand === Rule.Factor ? this.factor() : this.leftRec(operand);
    if (!res) this.mark = m;
    this.leave();
    return res;
  }

  private bitwiseOr(): Node | null {
    return this.leftRec(Rule.BitwiseOr);
  }

  private primary(): Node | null {
    return this.leftRec(Rule.Primary);
  }

  /**
   * factor: '+' factor | '-' factor | '~' factor | power, with power: await_primary '**'
   * factor | await_primary. CPython recurses once per sign and per `**`; these chains are
   * walked iteratively here (same levels, memo entries and order of alternatives) so that
   * thousands of operators do not exhaust the JS stack.
   */
  private factor(): Node | null {
    const frames: ({ readonly pos: number } & ({ readonly op: UnaryOp } | { readonly left: Node }))[] = [];
    let res: Node | null;
    for (;;) {
      this.enter();
      const hit = this.memoGet(Rule.Factor);
      if (hit) {
        this.leave();
        res = hit.node;
        break;
      }
      const pos = this.mark;
      const t = this.peek();
      if (t.type === 'OP' && (t.text === '+' || t.text === '-')) {
        frames.push({ pos, op: t.text });
        this.mark++;
        continue;
      }
      this.absent(); // '~'
      this.enter(); // power
      this.peek();
      const a = this.awaitPrimary();
      if (a && this.expect('**')) {
        frames.push({ pos, left: a });
        continue;
      }
      res = this.powerFallback(pos);
      break;
    }
    while (frames.length > 0) {
      const f = frames.pop()!;
      if ('op' in f) {
        if (res) {
          res = { k: 'unary', op: f.op, operand: res };
          this.memoSet(Rule.Factor, f.pos, res);
          this.leave();
        } else res = this.factorRest(f.pos);
      } else if (res) {
        res = { k: 'binop', op: '**', left: f.left, right: res };
        this.leave(); // power
        this.memoSet(Rule.Factor, f.pos, res);
        this.leave();
      } else res = this.powerFallback(f.pos);
    }
    return res;
  }

  /** power's second alternative at `pos`, then the end of factor (both already entered). */
  private powerFallback(pos: number): Node | null {
    this.mark = pos;
    const res = this.awaitPrimary();
    if (!res) this.mark = pos;
    this.leave(); // power
    this.memoSet(Rule.Factor, pos, res);
    this.leave();
    return res;
  }

  /** The remaining alternatives of factor at `m` ('~' factor | power); memoises and leaves. */
  private factorRest(m: number): Node | null {
    this.mark = m;
    this.absent(); // '~'
    const res = this.power();
    if (!res) this.mark = m;
    this.memoSet(Rule.Factor, m, res);
    this.leave();
    return res;
  }

  private power(): Node | null {
    this.enter();
    this.peek();
    const m = this.mark;
    const a = this.awaitPrimary();
    if (a && this.expect('**')) {
      const b = this.factor();
      if (b) {
        this.leave();
        return { k: 'binop', op: '**', left: a, right: b };
      }
    }
    this.mark = m;
    const res = this.awaitPrimary();
    if (!res) this.mark = m;
    this.leave();
    return res;
  }

  private awaitPrimary(): Node | null {
    this.enter();
    const hit = this.memoGet(Rule.AwaitPrimary);
    if (hit) {
      this.leave();
      return hit.node;
    }
    const m = this.mark;
    this.absent(); // AWAIT
    const res = this.primary();
    if (!res) this.mark = m;
    this.memoSet(Rule.AwaitPrimary, m, res);
    this.leave();
    return res;
  }

  private primaryRaw(): Node | null {
    this.enter();
    this.peek();
    const m = this.mark;
    // primary '.' NAME
    if (this.primary() && this.expect('.')) this.absent();
    this.mark = m;
    // primary genexp (a generator needs `for`)
    if (this.primary()) this.genexp();
    this.mark = m;
    // primary '(' [arguments] ')'
    const f = this.primary();
    if (f && this.expect('(')) {
      const args = this.arguments();
      if (this.expect(')')) {
        this.leave();
        return { k: 'call', func: f, arg: args };
      }
    }
    this.mark = m;
    // primary '[' slices ']'
    if (this.primary()) this.expect('[');
    this.mark = m;
    const res = this.atom();
    if (!res) this.mark = m;
    this.leave();
    return res;
  }

  private atom(): Node | null {
    this.enter();
    const t = this.peek();
    const m = this.mark;
    // NAME, 'True', 'False', 'None', &STRING are never present.
    if (t.type === 'NUMBER') {
      this.mark++;
      this.leave();
      return { k: 'const', v: this.numberValue(t.text) };
    }
    if (t.type === 'OP' && t.text === '(') {
      this.enter(); // _tmp: tuple | group | genexp
      let res = this.tuple();
      if (!res) {
        this.mark = m;
        res = this.group();
      }
      if (!res) {
        this.mark = m;
        this.genexp();
        this.mark = m;
      }
      this.leave();
      if (res) {
        this.leave();
        return res;
      }
    }
    if (this.expect('...')) {
      this.leave();
      return { k: 'const', v: ELLIPSIS };
    }
    this.leave();
    return null;
  }

  // Python parity: _PyPegen_number_token → parsenumber → PyLong_FromString (int_max_str_digits).
  private numberValue(text: string): bigint | number {
    if (text.includes('.')) return Number(text);
    if (text[0] === '0') return 0n;
    if (text.length > MAX_STR_DIGITS)
      this.syntax(
        `Exceeds the limit (${MAX_STR_DIGITS} digits) for integer string conversion: value has ${text.length} digits; ` +
          'use sys.set_int_max_str_digits() to increase the limit - Consider hexadecimal for huge integer literals ' +
          'to avoid decimal conversion limits.',
      );
    return BigInt(text);
  }

  /** tuple: '(' [star_named_expression ',' [star_named_expressions]] ')' */
  private tuple(): Node | null {
    this.enter();
    this.peek();
    const m = this.mark;
    if (this.expect('(')) {
      this.enter();
      const m2 = this.mark;
      if (this.starNamedExpression()) this.expect(',');
      this.mark = m2;
      this.leave();
      if (this.expect(')')) {
        this.leave();
        return { k: 'const', v: EMPTY_TUPLE };
      }
    }
    this.mark = m;
    this.leave();
    return null;
  }

  /** group: '(' (yield_expr | named_expression) ')' | invalid_group */
  private group(): Node | null {
    this.enter();
    const m = this.mark;
    if (this.expect('(')) {
      this.enter();
      const m2 = this.mark;
      this.enter(); // yield_expr: 'yield' ...
      this.peek();
      this.absent();
      this.leave();
      this.mark = m2;
      const a = this.namedExpression();
      if (!a) this.mark = m2;
      this.leave();
      if (a && this.expect(')')) {
        this.leave();
        return a;
      }
    }
    this.mark = m;
    if (this.callInvalid) {
      this.invalidGroup();
      this.mark = m;
    }
    this.leave();
    return null;
  }

  private invalidGroup(): void {
    this.enter();
    const m = this.mark;
    if (this.expect('(') && this.starredExpression() && this.expect(')')) this.syntax('cannot use starred expression here');
    this.mark = m;
    if (this.expect('(') && this.expect('**') && this.expression() && this.expect(')')) this.syntax('cannot use double starred expression here');
    this.mark = m;
    this.leave();
  }

  /** genexp: '(' (assignment_expression | expression !':=') for_if_clauses ')' | invalid_comprehension */
  private genexp(): null {
    this.enter();
    this.peek();
    const m = this.mark;
    if (this.expect('(')) {
      this.enter();
      const m2 = this.mark;
      this.assignmentExpression();
      this.mark = m2;
      const a = this.expression();
      if (a)
        this.peek(); // !':='
      else this.mark = m2;
      this.leave();
      if (a) this.forIfClauses();
    }
    this.mark = m;
    if (this.callInvalid) {
      this.invalidComprehension();
      this.mark = m;
    }
    this.leave();
    return null;
  }

  /** for_if_clauses: never matches (no `for`); invalid_for_target adds a level. */
  private forIfClauses(): void {
    this.probe(this.callInvalid ? 4 : 3);
  }

  private invalidComprehension(): void {
    this.enter();
    const m = this.mark;
    this.enter(); // ('[' | '(' | '{')
    const open = this.expect('(');
    this.leave();
    if (open && this.starredExpression()) this.forIfClauses();
    this.mark = m;
    this.probe(1); // ('[' | '{') ...
    this.mark = m;
    this.probe(1);
    this.mark = m;
    this.leave();
  }

  private assignmentExpression(): void {
    this.enter();
    this.absent(); // NAME ':='
    this.leave();
  }

  private starredExpression(): Node | null {
    this.enter();
    this.peek();
    const m = this.mark;
    if (this.expect('*')) {
      const a = this.expression();
      if (a) {
        this.leave();
        return { k: 'starred', value: a };
      }
    }
    this.mark = m;
    this.leave();
    return null;
  }

  private namedExpression(): Node | null {
    this.enter();
    this.peek();
    const m = this.mark;
    this.assignmentExpression();
    this.mark = m;
    if (this.callInvalid) {
      this.invalidNamedExpression();
      this.mark = m;
    }
    const a = this.expression();
    if (a)
      this.peek(); // !':='
    else this.mark = m;
    this.leave();
    return a;
  }

  private invalidNamedExpression(): void {
    this.enter();
    const hit = this.memoGet(Rule.InvalidNamedExpression);
    if (hit) {
      this.leave();
      return;
    }
    const m = this.mark;
    if (this.expression()) this.absent(); // ':='
    this.mark = m;
    this.absent(); // NAME '='
    // !(list | tuple | genexp | 'True' | 'None' | 'False') bitwise_or '=' ...
    this.enter();
    this.enter(); // list: '[' ...
    this.peek();
    this.absent();
    this.leave();
    this.mark = m;
    const isTuple = this.tuple() !== null;
    if (!isTuple) {
      this.mark = m;
      this.genexp();
      this.mark = m;
      this.absent(); // 'True' 'None' 'False'
    }
    this.leave();
    this.mark = m;
    if (!isTuple && this.bitwiseOr()) this.absent(); // '='
    this.mark = m;
    this.memoSet(Rule.InvalidNamedExpression, m, null);
    this.leave();
  }

  private starNamedExpression(): Node | null {
    this.enter();
    this.peek();
    const m = this.mark;
    if (this.expect('*')) {
      const a = this.bitwiseOr();
      if (a) {
        this.leave();
        return { k: 'starred', value: a };
      }
    }
    this.mark = m;
    const res = this.namedExpression();
    if (!res) this.mark = m;
    this.leave();
    return res;
  }

  /** arguments: args [','] &')' | invalid_arguments — at most one argument without commas. */
  private arguments(): Node | null {
    this.enter();
    const hit = this.memoGet(Rule.Arguments);
    if (hit) {
      this.leave();
      return hit.node;
    }
    const m = this.mark;
    let res = this.args();
    if (res) {
      this.expect(',');
      if (!(this.peek().type === 'OP' && this.peek().text === ')')) res = null;
    }
    if (!res) {
      this.mark = m;
      if (this.callInvalid) {
        this.invalidArguments();
        this.mark = m;
      }
    }
    this.memoSet(Rule.Arguments, m, res);
    this.leave();
    return res;
  }

  private args(): Node | null {
    this.enter();
    this.peek();
    const m = this.mark;
    // ','.(starred_expression | (assignment_expression | expression !':=') !'=')+ [',' kwargs]
    this.enter(); // _gather
    this.enter(); // element
    const m2 = this.mark;
    let e = this.starredExpression();
    if (!e) {
      this.mark = m2;
      this.enter();
      const m3 = this.mark;
      this.assignmentExpression();
      this.mark = m3;
      e = this.expression();
      if (e)
        this.peek(); // !':='
      else this.mark = m3;
      this.leave();
      if (e) this.peek(); // !'='
    }
    this.leave();
    if (e) this.probe(1); // (',' element)*
    this.leave();
    if (e) {
      this.probe(1); // [',' kwargs]
      this.leave();
      return e;
    }
    this.mark = m;
    const kw = this.kwargs();
    if (!kw) this.mark = m;
    this.leave();
    return kw;
  }

  private kwargs(): Node | null {
    this.enter();
    const m = this.mark;
    if (this.gather(() => this.kwargOrStarred())) this.expect(',');
    this.mark = m;
    let res = this.gather(() => this.kwargOrStarred());
    if (!res) {
      this.mark = m;
      res = this.gather(() => this.kwargOrDoubleStarred());
      if (!res) this.mark = m;
    }
    this.leave();
    return res;
  }

  private gather(element: () => Node | null): Node | null {
    this.enter();
    const e = element();
    if (e) this.probe(1);
    this.leave();
    return e;
  }

  private kwargOrStarred(): Node | null {
    this.enter();
    this.peek();
    const m = this.mark;
    if (this.callInvalid) {
      this.invalidKwarg();
      this.mark = m;
    }
    this.absent(); // NAME '=' expression
    const res = this.starredExpression();
    if (!res) this.mark = m;
    this.leave();
    return res;
  }

  private kwargOrDoubleStarred(): Node | null {
    this.enter();
    this.peek();
    const m = this.mark;
    if (this.callInvalid) {
      this.invalidKwarg();
      this.mark = m;
    }
    this.absent(); // NAME '=' expression
    if (this.expect('**')) {
      const a = this.expression();
      if (a) {
        this.leave();
        return { k: 'kwstarred', value: a };
      }
    }
    this.mark = m;
    this.leave();
    return null;
  }

  private invalidKwarg(): void {
    this.enter();
    const m = this.mark;
    this.probe(1); // ('True'|'False'|'None') '='
    this.absent(); // NAME '=' expression for_if_clauses
    this.probe(1); // !(NAME '=')
    if (this.expression()) this.expect('=');
    this.mark = m;
    this.leave();
  }

  private invalidArguments(): void {
    this.enter();
    const m = this.mark;
    if (this.args()) this.expect(',');
    this.mark = m;
    if (this.expression()) this.forIfClauses();
    this.mark = m;
    this.absent(); // NAME '=' expression for_if_clauses
    if (this.args()) this.forIfClauses();
    this.mark = m;
    if (this.args()) this.expect(',');
    this.mark = m;
    if (this.args()) this.expect(',');
    this.mark = m;
    this.leave();
  }
}

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
