import { pyRepr } from './repr';
import type { PyValue } from './value';

export type PyExceptionType =
  | 'KeyError'
  | 'TypeError'
  | 'AttributeError'
  | 'ValueError'
  | 'IndexError'
  | 'ZeroDivisionError'
  | 'OverflowError'
  | 'SyntaxError'
  | 'RecursionError'
  | 'ValidationError'
  | 'JSONDecodeError'
  | 'AssertionError'
  | 'MemoryError'
  | 'UnicodeEncodeError'
  // binascii.Error (type(e).__name__ is 'Error').
  | 'Error';

/**
 * A Python exception raised by emulated Python code. `text` is exactly `str(e)`,
 * which is what τ-bench's `Env.step` puts after `Error: `.
 */
export class PyException extends Error {
  constructor(
    readonly pyType: PyExceptionType,
    readonly text: string,
  ) {
    super(`${pyType}: ${text}`);
    this.name = 'PyException';
  }
}

// Python parity: str(KeyError(k)) is repr(k).
export const keyError = (key: PyValue): PyException => new PyException('KeyError', pyRepr(key));
export const typeError = (text: string): PyException => new PyException('TypeError', text);
export const attributeError = (text: string): PyException => new PyException('AttributeError', text);
export const valueError = (text: string): PyException => new PyException('ValueError', text);
export const indexError = (text: string): PyException => new PyException('IndexError', text);
