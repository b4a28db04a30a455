/**
 * Reads τ-bench's `tasks_*.py` files (a list of `Task(...)` calls with `Action(...)` calls and
 * literals) into core `Task`s, for tests that have a tau-bench checkout to point at. Only the
 * literal subset those files use: calls with keyword arguments, lists, dicts, strings, numbers,
 * True/False/None.
 */
import type { Action, Task } from '../../src/core/model/episode/types';
import type { PyDict, PyValue } from '../../src/core/py/value';

type Node = PyValue | { call: string; kwargs: Map<string, Node> };

class Reader {
  i = 0;
  constructor(readonly s: string) {}

  skip(): void {
    for (;;) {
      while (/\s/.test(this.s[this.i] ?? '')) this.i++;
      if (this.s[this.i] === '#') while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
      else return;
    }
  }

  expect(ch: string): void {
    this.skip();
    if (this.s[this.i] !== ch) throw new Error(`expected ${ch} at ${this.i}: ${this.s.slice(this.i, this.i + 40)}`);
    this.i++;
  }

  value(): Node {
    this.skip();
    const c = this.s[this.i]!;
    if (c === '"' || c === "'") {
      let out = '';
      while (this.s[this.i] === '"' || this.s[this.i] === "'") {
        out += this.string();
        this.skip();
      }
      return out;
    }
    if (c === '[') {
      this.i++;
      const items: Node[] = [];
      for (;;) {
        this.skip();
        if (this.s[this.i] === ']') return (this.i++, items as PyValue[]);
        items.push(this.value());
        this.skip();
        if (this.s[this.i] === ',') this.i++;
      }
    }
    if (c === '{') {
      this.i++;
      const m = new Map<string, Node>();
      for (;;) {
        this.skip();
        if (this.s[this.i] === '}') return (this.i++, m as PyDict);
        const k = this.value();
        this.expect(':');
        m.set(k as string, this.value());
        this.skip();
        if (this.s[this.i] === ',') this.i++;
      }
    }
    const num = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(this.s.slice(this.i, this.i + 40));
    if (num) {
      this.i += num[0].length;
      return num[1] || num[2] ? Number(num[0]) : BigInt(num[0]);
    }
    const name = /^[A-Za-z_]\w*/.exec(this.s.slice(this.i, this.i + 80))![0];
    this.i += name.length;
    if (name === 'True') return true;
    if (name === 'False') return false;
    if (name === 'None') return null;
    this.expect('(');
    const kwargs = new Map<string, Node>();
    for (;;) {
      this.skip();
      if (this.s[this.i] === ')') return (this.i++, { call: name, kwargs });
      const key = /^[A-Za-z_]\w*/.exec(this.s.slice(this.i, this.i + 80))![0];
      this.i += key.length;
      this.expect('=');
      kwargs.set(key, this.value());
      this.skip();
      if (this.s[this.i] === ',') this.i++;
    }
  }

  string(): string {
    const q = this.s[this.i]!;
    const triple = this.s.startsWith(q.repeat(3), this.i);
    this.i += triple ? 3 : 1;
    let out = '';
    for (;;) {
      if (triple ? this.s.startsWith(q.repeat(3), this.i) : this.s[this.i] === q) {
        this.i += triple ? 3 : 1;
        return out;
      }
      const ch = this.s[this.i++]!;
      if (ch !== '\\') {
        out += ch;
        continue;
      }
      const e = this.s[this.i++]!;
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '\n': '' };
      if (e in simple) out += simple[e];
      else if (e === 'x') out += String.fromCharCode(parseInt(this.s.slice(this.i, (this.i += 2)), 16));
      else if (e === 'u') out += String.fromCharCode(parseInt(this.s.slice(this.i, (this.i += 4)), 16));
      else out += '\\' + e;
    }
  }
}

function toTask(n: Node): Task {
  if (!(n && typeof n === 'object' && 'call' in n) || n.call !== 'Task') throw new Error('not a Task(...)');
  const actions = (n.kwargs.get('actions') as Node[]).map((a): Action => {
    if (!(a && typeof a === 'object' && 'call' in a)) throw new Error('not an Action(...)');
    return { name: a.kwargs.get('name') as string, kwargs: a.kwargs.get('kwargs') as PyDict };
  });
  return {
    userId: n.kwargs.get('user_id') as string,
    actions,
    instruction: n.kwargs.get('instruction') as string,
    outputs: (n.kwargs.get('outputs') as string[] | undefined) ?? [],
  };
}

/** The tasks of a `tasks_<split>.py` file, in order. */
export function readTaskFile(text: string): Task[] {
  const at = text.search(/^[A-Z_]+\s*=\s*\[/m);
  if (at < 0) throw new Error('no TASKS = [...] assignment');
  const r = new Reader(text);
  r.i = text.indexOf('[', at);
  return (r.value() as Node[]).map(toTask);
}
