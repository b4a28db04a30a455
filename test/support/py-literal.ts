/**
 * Evaluates the Python literal expressions of ../shared/expected/python-repr-cases.json (test
 * only): strings with escapes, ints, floats, tuples, lists, dicts, True/False/None, + - * / **,
 * float('inf'), round(x, 2) and to_hashable(json.loads('...')), then renders `str()` of the result
 * with the core's repr.
 */
import { hashableStr } from '../../src/core/py/hashable';
import { parseJson } from '../../src/core/py/json-parse';
import { round2 } from '../../src/core/py/ops';
import { pyBinaryOp, pyUnaryOp, type ExprValue } from '../../src/core/py/expr';
import { pyRepr } from '../../src/core/py/repr';
import type { PyValue } from '../../src/core/py/value';

type Lit = PyValue | { readonly tuple: readonly Lit[] } | { readonly verbatim: string } | readonly Lit[] | ReadonlyMap<Lit, Lit>;

const isObj = (v: Lit): v is { tuple: Lit[] } | { verbatim: string } => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Map);

/** `repr()` of a literal value (containers may hold tuples). */
export function reprLit(v: Lit): string {
  if (isObj(v)) {
    if ('verbatim' in v) return v.verbatim;
    const items = v.tuple.map(reprLit);
    return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
  }
  if (Array.isArray(v)) return `[${(v as Lit[]).map(reprLit).join(', ')}]`;
  if (v instanceof Map) return `{${[...(v as Map<Lit, Lit>)].map(([k, x]) => `${reprLit(k)}: ${reprLit(x)}`).join(', ')}}`;
  return pyRepr(v as PyValue);
}

/** `str()` of a literal value: a bare string prints raw. */
export const strLit = (v: Lit): string => (typeof v === 'string' ? v : reprLit(v));

class P {
  i = 0;
  constructor(readonly s: string) {}
  ws(): void {
    while (this.s[this.i] === ' ') this.i++;
  }
  peek(t: string): boolean {
    this.ws();
    return this.s.startsWith(t, this.i);
  }
  eat(t: string): void {
    if (!this.peek(t)) throw new Error(`expected ${t} at ${this.i} in ${this.s}`);
    this.i += t.length;
  }
  expr(): Lit {
    let v = this.term();
    for (;;) {
      const op = this.peek('+') ? '+' : this.peek('-') ? '-' : null;
      if (op === null) return v;
      this.eat(op);
      v = arith(op, v, this.term());
    }
  }
  term(): Lit {
    let v = this.unary();
    for (;;) {
      if (this.peek('**')) return v;
      const op = this.peek('*') ? '*' : this.peek('/') ? '/' : null;
      if (op === null) return v;
      this.eat(op);
      v = arith(op, v, this.unary());
    }
  }
  unary(): Lit {
    if (this.peek('-')) {
      this.eat('-');
      return pyUnaryOp('-', this.unary() as ExprValue) as Lit;
    }
    const base = this.atom();
    if (this.peek('**')) {
      this.eat('**');
      return arith('**', base, this.unary());
    }
    return base;
  }
  atom(): Lit {
    this.ws();
    const c = this.s[this.i]!;
    if (c === "'" || c === '"') return this.string();
    if (c === '(') {
      this.eat('(');
      const items: Lit[] = [];
      let comma = false;
      while (!this.peek(')')) {
        items.push(this.expr());
        if (this.peek(',')) {
          this.eat(',');
          comma = true;
        }
      }
      this.eat(')');
      return items.length === 1 && !comma ? items[0]! : { tuple: items };
    }
    if (c === '[') {
      this.eat('[');
      const items: Lit[] = [];
      while (!this.peek(']')) {
        items.push(this.expr());
        if (this.peek(',')) this.eat(',');
      }
      this.eat(']');
      return items;
    }
    if (c === '{') {
      this.eat('{');
      const m = new Map<Lit, Lit>();
      while (!this.peek('}')) {
        const k = this.expr();
        this.eat(':');
        m.set(k, this.expr());
        if (this.peek(',')) this.eat(',');
      }
      this.eat('}');
      return m;
    }
    const num = /^(\d+\.?\d*(e[-+]?\d+)?|\.\d+(e[-+]?\d+)?)/i.exec(this.s.slice(this.i));
    if (num) {
      this.i += num[0].length;
      return /[.e]/i.test(num[0]) ? Number(num[0]) : BigInt(num[0]);
    }
    const name = /^[A-Za-z_][\w.]*/.exec(this.s.slice(this.i))![0];
    this.i += name.length;
    if (name === 'True') return true;
    if (name === 'False') return false;
    if (name === 'None') return null;
    this.eat('(');
    const args: Lit[] = [];
    while (!this.peek(')')) {
      args.push(this.expr());
      if (this.peek(',')) this.eat(',');
    }
    this.eat(')');
    if (name === 'float') return Number((args[0] as string).replace(/^(-?)inf$/, '$1Infinity').replace(/^nan$/, 'NaN'));
    if (name === 'round') return round2(args[0] as PyValue);
    if (name === 'json.loads') return { verbatim: args[0] as string };
    if (name === 'to_hashable') return { verbatim: hashableStr(parseJson((args[0] as { verbatim: string }).verbatim)) };
    throw new Error(`unknown call ${name}`);
  }
  string(): string {
    const q = this.s[this.i]!;
    this.i++;
    let out = '';
    for (;;) {
      const ch = this.s[this.i++]!;
      if (ch === q) return out;
      if (ch !== '\\') {
        out += ch;
        continue;
      }
      const e = this.s[this.i++]!;
      const hex = (n: number): number => parseInt(this.s.slice(this.i, (this.i += n)), 16);
      if (e === 'x') out += String.fromCharCode(hex(2));
      else if (e === 'u') out += String.fromCharCode(hex(4));
      else if (e === 'U') out += String.fromCodePoint(hex(8));
      else out += ({ n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' } as Record<string, string>)[e] ?? `\\${e}`;
    }
  }
}

function arith(op: '+' | '-' | '*' | '/' | '**', a: Lit, b: Lit): Lit {
  return pyBinaryOp(op, a as ExprValue, b as ExprValue) as Lit;
}

export function evalLiteral(source: string): Lit {
  const p = new P(source);
  const v = p.expr();
  p.ws();
  if (p.i !== source.length) throw new Error(`trailing text in ${source}`);
  return v;
}
