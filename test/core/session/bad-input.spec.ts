import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ResultsFileError } from '../../../src/core/model/episode/results-file';
import { EvaluationSetupError } from '../../../src/core/judge/detect';
import { InspectSession } from '../../../src/core/session/session';
import { Dialogue } from '../../../src/features/episode/dialogue';
import { evaluateFile } from '../../support/evaluate-file';
import { readResultsFile } from '../../../src/core/model/episode/results-file';
import { sampleRunText, sampleVersion } from '../../support/fixtures';

const sample = sampleVersion();
const good = (JSON.parse(sampleRunText()) as Record<string, unknown>[])[0]!;
const withTraj = (traj: unknown): string => JSON.stringify([good, { ...good, traj }]);
const withTask = (task: unknown): string => JSON.stringify([good, { ...good, info: { ...(good.info as object), task } }]);
const lastMessage = (m: unknown): string => JSON.stringify([good, { ...good, traj: [...(good.traj as unknown[]).slice(0, -2), m] }]);

/** Whole-file problems: one clear error. */
const FILE_ERRORS: readonly (readonly [string, string, RegExp])[] = [
  ['empty text', '', /not valid JSON: Expecting value/],
  ['truncated JSON', '[{"task_id": 0,', /not valid JSON/],
  ['a number', '42', /expected a list of episodes, got a int/],
  ['an unrelated object', '{"hello": 1}', /not a τ-bench episode/],
];

/** Per-episode problems: that episode gets a message, the good one is still judged. */
const EPISODE_ERRORS: readonly (readonly [string, string, RegExp])[] = [
  ['traj is a number', withTraj(5), /traj is int, not a list/],
  ['traj holds a string', withTraj(['hi']), /not an object/],
  ['empty trajectory', withTraj([]), /trajectory is empty/],
  ['task missing', withTask(undefined), /info.task is missing/],
  ['task actions not a list', withTask({ user_id: 'x', actions: 'no', instruction: '', outputs: [] }), /actions is str, not a list/],
  ['action without name', withTask({ user_id: 'x', actions: [{ kwargs: {} }], instruction: '', outputs: [] }), /name is missing/],
  ['outputs not strings', withTask({ user_id: 'x', actions: [], instruction: '', outputs: [1] }), /outputs is not a list of strings/],
  ['episode is a string', JSON.stringify([good, 'oops']), /is a str, not an object/],
];

describe('bad input: a clear message, the rest keeps working', () => {
  it.each(FILE_ERRORS)('%s', (_name, text, message) => {
    expect(() => readResultsFile(text)).toThrow(ResultsFileError);
    expect(() => readResultsFile(text)).toThrow(message);
  });

  it.each(EPISODE_ERRORS)('%s', (_name, text, message) => {
    const r = evaluateFile(readResultsFile(text), () => [sample], { domain: 'retail' });
    expect(r.reports[0]!.error).toBeUndefined();
    expect(r.reports[0]!.reward).toBe(good.reward);
    expect(r.reports[1]!.error).toMatch(message);
  });

  it.each([
    [
      'tool arguments that are not JSON',
      { role: 'assistant', content: null, tool_calls: [{ id: 'x', type: 'function', function: { name: 'get_order_details', arguments: '{oops' } }] },
    ],
    [
      'tool arguments that are a list',
      { role: 'assistant', content: null, tool_calls: [{ id: 'x', type: 'function', function: { name: 'get_order_details', arguments: '[1]' } }] },
    ],
    ['a respond with no content key', { role: 'assistant', tool_calls: null }],
  ])('%s: the episode is judged up to there and marked as a τ-bench crash', (_name, message) => {
    const r = evaluateFile(readResultsFile(lastMessage(message)), () => [sample], { domain: 'retail' });
    expect(r.reports[0]!.error).toBeUndefined();
    expect(r.reports[1]!.error).toBeUndefined();
    expect(r.reports[1]!.crash).toMatch(/\w+Error/);
    expect(r.reports[1]!.done).toBe(false);
  });

  it('a file with no domain evidence asks for the domain', () => {
    const text = JSON.stringify([
      { task_id: 0, reward: 0, info: { task: { user_id: 'x', actions: [], instruction: '', outputs: [] } }, traj: [{ role: 'user', content: 'hi' }], trial: 0 },
    ]);
    expect(() => evaluateFile(readResultsFile(text), () => [sample])).toThrow(EvaluationSetupError);
  });

  it('model text is never interpreted: HTML and huge numbers in messages stay text', () => {
    const markup = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const huge = '1' + '0'.repeat(5000);
    const content = `${markup} ${huge}`;
    const session = new InspectSession(lastMessage({ role: 'assistant', content, tool_calls: null }), { domain: 'retail' });
    session.useData([sample]);
    const reports = session.evaluateAll();
    expect(reports[0]!.error).toBeUndefined();
    expect(reports[1]!.error).toBeUndefined();

    const view = session.view(1);
    if ('error' in view) throw new Error(view.error);
    const message = view.messages[view.messages.length - 1]!;
    expect(message.content).toBe(content);
    const step = view.steps.find((s) => s.messageIndex === message.index)!;
    expect(step.action).toBe('respond');
    expect(step.respondText).toBe(content);
    expect(session.episodeJson(1)).toContain(JSON.stringify(content));

    // The real dialogue component prints it as text: escaped markup, every digit kept.
    const html = renderToString(createElement(Dialogue, { view, step: step.index, mark: null, reveal: null, onSelect: () => {} }));
    // (React separates adjacent text nodes with empty comments; the Markdown renderer makes several.)
    expect(html.replace(/<!-- -->/g, '')).toContain('&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(html).not.toMatch(/<img|<script/i);
    // Long runs carry <wbr> break hints (not content: copying skips them); the digits are all there.
    expect(html.replace(/<wbr\/?>/g, '')).toContain(huge);
  });
});
