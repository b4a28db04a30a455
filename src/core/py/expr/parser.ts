/** CPython 3.11's two-pass PEG parser (Grammar/python.gram), the rules reachable from `eval`. */
import { ELLIPSIS, EMPTY_TUPLE, MAX_STR_DIGITS, type BinaryOp, type ExprValue, type UnaryOp } from './values';
import type { Token, Tokens } from './tokenizer';
// ---------------------------------------------------------------------------------------
// Parser (Grammar/python.gram of CPython 3.11, rules reachable from `eval`)

export type Node =
  | { readonly k: 'const'; readonly v: ExprValue }
  | { readonly k: 'unary'; readonly op: UnaryOp; readonly operand: Node }
  | { readonly k: 'binop'; readonly op: BinaryOp; readonly left: Node; readonly right: Node }
  | { readonly k: 'call'; readonly func: Node; readonly arg: Node | null }
  | { readonly k: 'starred'; readonly value: Node }
  | { readonly k: 'kwstarred'; readonly value: Node };

// Python parity: MAXSTACK in Parser/parser.c (CPython 3.11).
const MAX_STACK = 6000;

type Origin = 'tokenizer' | 'parser' | 'memory';
export class ParseStop {
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

export class Parser {
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
