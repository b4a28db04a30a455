/**
 * Test-only evaluator for the Python literal sources of python-repr-cases.json: str/int/float
 * literals, tuples, lists, dicts, True/False/None, + - * / // ** and unary signs,
 * float('inf'|'-inf'|'nan'), round(x, n), to_hashable(json.loads('...')).
 */
import { pyBinaryOp, pyUnaryOp, type BinaryOp } from '../../src/core/py/expr';
import { hashableStr } from '../../src/core/py/hashable';
import { parseJson } from '../../src/core/py/json-parse';
import { round2 } from '../../src/core/py/ops';
import { pyRepr } from '../../src/core/py/repr';
import type { PyValue } from '../../src/core/py/value';

export interface LitTuple {
  readonly kind: 'tuple';
  readonly items: readonly Lit[];
}
/** `to_hashable(v)` of a JSON value, kept as the JSON value and rendered with hashableStr. */
export interface LitHashable {
  readonly kind: 'hashable';
  readonly value: PyValue;
}
export type Lit = null | boolean | bigint | number | string | Lit[] | Map<string, Lit> | LitTuple | LitHashable;

const isTagged = (v: Lit): v is LitTuple | LitHashable => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Map);

/** Python `repr()` of a literal value. */
export function litRepr(v: Lit): string {
  if (isTagged(v)) {
    if (v.kind === 'hashable') return hashableStr(v.value);
    const parts = v.items.map(litRepr);
    return parts.length === 1 ? `(${parts[0]},)` : `(${parts.join(', ')})`;
  }
  if (Array.isArray(v)) return `[${v.map(litRepr).join(', ')}]`;
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${pyRepr(k)}: ${litRepr(x)}`).join(', ')}}`;
  return pyRepr(v);
}

/** Python `str()` of a literal value. */
export function litStr(v: Lit): string {
  return typeof v === 'string' ? v : litRepr(v);
}

type Tok = { t: 'num'; v: bigint | number } | { t: 'str'; v: string } | { t: 'name'; v: string } | { t: 'op'; v: string };

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
};

function readString(src: string, start: number): [string, number] {
  const quote = src[start]!;
  let out = '';
  let i = start + 1;
  for (;;) {
    const c = src[i];
    if (c === undefined) throw new Error(`unterminated string in ${src}`);
    if (c === quote) return [out, i + 1];
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    const e = src[i + 1]!;
    const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (width > 0) {
      const hex = src.slice(i + 2, i + 2 + width);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width) throw new Error(`bad \\${e} escape in ${src}`);
      const cp = parseInt(hex, 16);
      // A lone surrogate stays a single UTF-16 unit, as in a Python str.
      out += cp >= 0xd800 && cp <= 0xdfff ? String.fromCharCode(cp) : String.fromCodePoint(cp);
      i += 2 + width;
    } else if (e in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[e];
      i += 2;
    } else throw new Error(`unsupported escape \\${e} in ${src}`);
  }
}

function tokenize(src: string): Tok[] {
  const toks: Tok[] = [];
  const num = /(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?/y;
  const name = /[A-Za-z_][A-Za-z_0-9]*/y;
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ') {
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      const [s, next] = readString(src, i);
      toks.push({ t: 'str', v: s });
      i = next;
      continue;
    }
    num.lastIndex = i;
    const n = num.exec(src);
    if (n && /[\d.]/.test(c)) {
      const text = n[0];
      toks.push({ t: 'num', v: /[.eE]/.test(text) ? Number(text) : BigInt(text) });
      i += text.length;
      continue;
    }
    name.lastIndex = i;
    const w = name.exec(src);
    if (w) {
      toks.push({ t: 'name', v: w[0] });
      i += w[0].length;
      continue;
    }
    const two = src.slice(i, i + 2);
    const op = two === '**' || two === '//' ? two : c;
    if (!'()[]{},:+-*/.'.includes(c)) throw new Error(`unexpected ${c} in ${src}`);
    toks.push({ t: 'op', v: op });
    i += op.length;
  }
  return toks;
}

const asNumber = (v: Lit): bigint | number => {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  throw new Error(`not a number: ${litRepr(v)}`);
};

class LiteralParser {
  private i = 0;
  constructor(private readonly toks: Tok[]) {}

  parseAll(): Lit {
    const v = this.expr();
    if (this.i !== this.toks.length) throw new Error('trailing tokens');
    return v;
  }

  private peekOp(op: string): boolean {
    const t = this.toks[this.i];
    return t?.t === 'op' && t.v === op;
  }

  private eat(op: string): boolean {
    if (!this.peekOp(op)) return false;
    this.i++;
    return true;
  }

  private need(op: string): void {
    if (!this.eat(op)) throw new Error(`expected ${op}`);
  }

  private expr(): Lit {
    let a = this.term();
    while (this.peekOp('+') || this.peekOp('-')) {
      const op = (this.toks[this.i++] as { v: BinaryOp }).v;
      a = pyBinaryOp(op, asNumber(a), asNumber(this.term())) as bigint | number;
    }
    return a;
  }

  private term(): Lit {
    let a = this.factor();
    while (this.peekOp('*') || this.peekOp('/') || this.peekOp('//')) {
      const op = (this.toks[this.i++] as { v: BinaryOp }).v;
      a = pyBinaryOp(op, asNumber(a), asNumber(this.factor())) as bigint | number;
    }
    return a;
  }

  private factor(): Lit {
    if (this.eat('-')) return pyUnaryOp('-', asNumber(this.factor())) as bigint | number;
    if (this.eat('+')) return pyUnaryOp('+', asNumber(this.factor())) as bigint | number;
    const a = this.atom();
    if (this.eat('**')) return pyBinaryOp('**', asNumber(a), asNumber(this.factor())) as bigint | number;
    return a;
  }

  private sequence(close: string): Lit[] {
    const items: Lit[] = [];
    while (!this.eat(close)) {
      items.push(this.expr());
      if (!this.eat(',')) {
        this.need(close);
        break;
      }
    }
    return items;
  }

  private atom(): Lit {
    const t = this.toks[this.i++];
    if (t === undefined) throw new Error('unexpected end');
    if (t.t === 'num' || t.t === 'str') return t.v;
    if (t.t === 'name') return this.name(t.v);
    if (t.v === '(') {
      if (this.eat(')')) return { kind: 'tuple', items: [] };
      const first = this.expr();
      if (this.eat(')')) return first;
      this.need(',');
      return { kind: 'tuple', items: [first, ...this.sequence(')')] };
    }
    if (t.v === '[') return this.sequence(']');
    if (t.v === '{') {
      const d = new Map<string, Lit>();
      while (!this.eat('}')) {
        const k = this.expr();
        if (typeof k !== 'string') throw new Error('only str keys are supported');
        this.need(':');
        d.set(k, this.expr());
        if (!this.eat(',')) {
          this.need('}');
          break;
        }
      }
      return d;
    }
    throw new Error(`unexpected ${t.v}`);
  }

  private args(): Lit[] {
    this.need('(');
    return this.sequence(')');
  }

  private name(n: string): Lit {
    switch (n) {
      case 'True':
        return true;
      case 'False':
        return false;
      case 'None':
        return null;
      case 'float': {
        const [arg] = this.args();
        if (typeof arg === 'string') {
          const special: Record<string, number> = { inf: Infinity, '-inf': -Infinity, nan: NaN };
          const v = special[arg.trim().toLowerCase()];
          if (v === undefined) return Number(arg);
          return v;
        }
        return typeof arg === 'bigint' ? Number(arg) : asNumber(arg ?? null);
      }
      case 'round': {
        const [x, digits] = this.args();
        if (digits !== 2n) throw new Error('only round(x, 2) is supported');
        return round2(asNumber(x ?? null)) as bigint | number;
      }
      case 'to_hashable': {
        const [x] = this.args();
        if (!isTagged(x ?? null) || (x as LitHashable).kind !== 'hashable') throw new Error('to_hashable expects json.loads(...)');
        return x!;
      }
      case 'json': {
        this.need('.');
        const t = this.toks[this.i++];
        if (t?.t !== 'name' || t.v !== 'loads') throw new Error('only json.loads is supported');
        const [text] = this.args();
        if (typeof text !== 'string') throw new Error('json.loads expects a str');
        return { kind: 'hashable', value: parseJson(text) };
      }
    }
    throw new Error(`unknown name ${n}`);
  }
}

/** Evaluates a Python literal source (the subset above). */
export function evalPyLiteral(src: string): Lit {
  return new LiteralParser(tokenize(src)).parseAll();
}
