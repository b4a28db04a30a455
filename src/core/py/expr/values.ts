/** Python values of `eval` results, and CPython 3.11's arithmetic on them. */
import { PyException, type PyExceptionType } from '../errors';
import { bitLength, powCorrectlyRounded, ratioToDouble } from '../float-math';
import { reprFloat } from '../repr';
import { MAX_STR_DIGITS } from '../int-parse';

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

export { MAX_STR_DIGITS };
// Guard against results no browser can hold (CPython would grind on for minutes).
const MAX_INT_BITS = 1 << 26;
const SSIZE_MAX = (1n << 63n) - 1n;

// PyExceptionType does not list MemoryError (raised by CPython's parser stack limit).
const MEMORY_ERROR: PyExceptionType = 'MemoryError';
export const memoryError = (): PyException => new PyException(MEMORY_ERROR, '');
export const typeErr = (text: string): PyException => new PyException('TypeError', text);
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
export const isTuple = (v: ExprValue): v is PyTuple => typeof v === 'object' && !(v instanceof PyComplex) && v.kind === 'tuple';
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
