/**
 * Reasoning inside an agent message, found so the dialogue can fold it: Qwen-style `<think>…</think>`
 * blocks (any case; several per message; the last one possibly unclosed; a leading `</think>`
 * without its opening tag, which chat templates often put in the prompt instead) and a ReAct
 * `Thought:` section (from `Thought:` at the start of the message up to the line starting with
 * `Action:`). Pure: offsets into the message text, which is never rewritten.
 */
export type Segment =
  | { readonly kind: 'text'; readonly start: number; readonly end: number }
  /** `start`/`end`: the reasoning itself (without tags or the `Thought:` label); `closed`: its end tag or `Action:` line is there. */
  | { readonly kind: 'reasoning'; readonly start: number; readonly end: number; readonly closed: boolean; readonly form: 'think' | 'thought' };

const OPEN = /<think>/giu;
const CLOSE = /<\/think>/giu;
const THOUGHT = /^\s*thought:/iu;
const ACTION = /^action:/imu;

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x0c;

/** `[start, end)` without the whitespace at either end (empty when all whitespace). */
function trim(text: string, start: number, end: number): [number, number] {
  let a = start;
  let b = end;
  while (a < b && isSpace(text.charCodeAt(a))) a++;
  while (b > a && isSpace(text.charCodeAt(b - 1))) b--;
  return [a, b];
}

/**
 * The message cut into text and reasoning, in order. Text between blocks loses only surrounding
 * whitespace (whitespace-only pieces are left out); empty reasoning blocks are left out (their tags
 * are not shown). A message without reasoning comes back as one text segment (or none when empty).
 */
export function splitReasoning(text: string): Segment[] {
  const out: Segment[] = [];
  const pushText = (start: number, end: number): void => {
    const [a, b] = trim(text, start, end);
    if (b > a) out.push({ kind: 'text', start: a, end: b });
  };
  const pushReasoning = (start: number, end: number, closed: boolean, form: 'think' | 'thought'): void => {
    const [a, b] = trim(text, start, end);
    if (b > a) out.push({ kind: 'reasoning', start: a, end: b, closed, form });
  };

  OPEN.lastIndex = 0;
  CLOSE.lastIndex = 0;
  const firstOpen = OPEN.exec(text);
  const firstClose = CLOSE.exec(text);
  if (firstOpen === null && firstClose === null) return thought(text, pushText, pushReasoning, out);

  let at = 0;
  // A closing tag before any opening tag: everything before it is reasoning.
  if (firstClose !== null && (firstOpen === null || firstClose.index < firstOpen.index)) {
    pushReasoning(0, firstClose.index, true, 'think');
    at = firstClose.index + firstClose[0].length;
  }
  for (;;) {
    OPEN.lastIndex = at;
    const open = OPEN.exec(text);
    if (open === null) {
      pushText(at, text.length);
      break;
    }
    pushText(at, open.index);
    const inner = open.index + open[0].length;
    CLOSE.lastIndex = inner;
    const close = CLOSE.exec(text);
    if (close === null) {
      pushReasoning(inner, text.length, false, 'think');
      break;
    }
    pushReasoning(inner, close.index, true, 'think');
    at = close.index + close[0].length;
  }
  return out;
}

/** A ReAct `Thought:` section at the start, up to the `Action:` line; otherwise the whole text. */
function thought(
  text: string,
  pushText: (start: number, end: number) => void,
  pushReasoning: (start: number, end: number, closed: boolean, form: 'thought') => void,
  out: Segment[],
): Segment[] {
  const label = THOUGHT.exec(text);
  if (label === null) {
    pushText(0, text.length);
    return out;
  }
  const inner = label.index + label[0].length;
  const action = ACTION.exec(text.slice(inner));
  if (action === null) {
    pushReasoning(inner, text.length, false, 'thought');
    return out;
  }
  const at = inner + action.index;
  pushReasoning(inner, at, true, 'thought');
  pushText(at, text.length);
  return out;
}

/** Whether a message has reasoning to fold (cheap test before splitting). */
export const hasReasoning = (text: string): boolean => /<\/?think>/iu.test(text) || THOUGHT.test(text);

/** `span` moved into the segment `[start, end)` (clipped), or null when it lies outside. */
export function spanIn(span: { readonly start: number; readonly end: number } | null, start: number, end: number): { start: number; end: number } | null {
  if (span === null || span.end <= start || span.start >= end) return null;
  return { start: Math.max(span.start, start) - start, end: Math.min(span.end, end) - start };
}
