import { describe, expect, it } from 'vitest';
import { hasReasoning, splitReasoning, type Segment } from '../../src/ui/reasoning';

/** Each segment as [kind, its text] (reasoning also says whether it was closed). */
const shown = (text: string): (readonly [string, string] | readonly [string, string, boolean])[] =>
  splitReasoning(text).map((s: Segment) => (s.kind === 'text' ? ['text', text.slice(s.start, s.end)] : [s.form, text.slice(s.start, s.end), s.closed]));

describe('splitReasoning', () => {
  const cases: readonly { name: string; text: string; want: ReturnType<typeof shown> }[] = [
    { name: 'none', text: 'Your order #W1 is on its way.', want: [['text', 'Your order #W1 is on its way.']] },
    { name: 'empty message', text: '', want: [] },
    {
      name: 'one block',
      text: '<think>\nThe user wants X.\n</think>\n\nSure, done.',
      want: [
        ['think', 'The user wants X.', true],
        ['text', 'Sure, done.'],
      ],
    },
    {
      name: 'several blocks',
      text: 'A <think>one</think> B <think>two</think> C',
      want: [
        ['text', 'A'],
        ['think', 'one', true],
        ['text', 'B'],
        ['think', 'two', true],
        ['text', 'C'],
      ],
    },
    {
      name: 'unclosed at the end',
      text: 'Hi <think>still thinking about',
      want: [
        ['text', 'Hi'],
        ['think', 'still thinking about', false],
      ],
    },
    {
      name: 'nested-looking text: the first closing tag ends the block',
      text: '<think>a <think> b</think> c</think> d',
      want: [
        ['think', 'a <think> b', true],
        ['text', 'c</think> d'],
      ],
    },
    {
      name: 'closing tag without an opening one (template put it in the prompt)',
      text: 'plan it\n</think>\nAnswer',
      want: [
        ['think', 'plan it', true],
        ['text', 'Answer'],
      ],
    },
    {
      name: 'case-insensitive tags',
      text: '<THINK>x</Think>y',
      want: [
        ['think', 'x', true],
        ['text', 'y'],
      ],
    },
    { name: 'empty block: left out, tags not shown', text: '<think>\n\n</think>\n\nHello', want: [['text', 'Hello']] },
    {
      name: 'ReAct Thought / Action',
      text: 'Thought:\nI should look up the user.\nAction:\n{"name": "find_user_id_by_email", "arguments": {}}',
      want: [
        ['thought', 'I should look up the user.', true],
        ['text', 'Action:\n{"name": "find_user_id_by_email", "arguments": {}}'],
      ],
    },
    { name: 'Thought without an Action line', text: 'thought: hmm', want: [['thought', 'hmm', false]] },
    { name: 'Thought: not at the start is plain text', text: 'My Thought: none\nAction: x', want: [['text', 'My Thought: none\nAction: x']] },
  ];
  for (const c of cases) it(c.name, () => expect(shown(c.text)).toEqual(c.want));

  it('offsets index the original text, which segments cover in order without overlap', () => {
    const text = ' <think> a </think> b <think> c';
    let at = 0;
    for (const s of splitReasoning(text)) {
      expect(s.start).toBeGreaterThanOrEqual(at);
      expect(s.end).toBeGreaterThan(s.start);
      at = s.end;
    }
    expect(at).toBeLessThanOrEqual(text.length);
  });

  it('hasReasoning agrees with splitReasoning', () => {
    for (const c of cases)
      expect(hasReasoning(c.text), c.name).toBe(splitReasoning(c.text).some((s) => s.kind === 'reasoning') || c.name.startsWith('empty block'));
  });
});
