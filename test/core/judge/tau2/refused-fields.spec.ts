/**
 * Issue #35 class 2: fields τ² refuses, or a replay τ² stops on, were judged silently (mostly 1.0). Now each is
 * as τ² has it: a field no verdict reads → the verdict, marked "τ² would refuse this file" with pydantic's words;
 * a part a verdict reads → not evaluable; a replay τ² raises on → not evaluable with τ²'s exception.
 * The expected texts are pydantic 2.13's (pydantic-core 2.46, jiter), checked against it.
 */
import { describe, expect, it } from 'vitest';
import { readTau2Folder, readTau2Text, tau2ReportParts, tau2Summary } from '../../../../src/core/contract';
import { parseJson } from '../../../../src/core/py/json-parse';
import { TAU2_UNREADABLE } from '../../../../src/core/judge/tau2/evaluate';
import { tau2JsonRefusal } from '../../../../src/core/model/episode/tau2/json-limits';
import { TAU2_WOULD_REFUSE } from '../../../../src/core/view/tau2/summary';
import { mockSample, mockSampleText, type SampleRun } from '../../../support/tau2-sample';

type Msg = Record<string, unknown> & { role: string; tool_calls?: { arguments: unknown }[] | null };
const messages = (run: SampleRun, sim = 0) => run.simulations[sim]!.messages as Msg[];

describe('message and simulation fields τ² refuses, that no verdict reads: the verdict, marked', () => {
  it('cost "x" on an assistant message: the verdict stands (1.0), marked in the report, the row and its reasons', async () => {
    const s = await mockSample((run) => (messages(run)[0]!.cost = 'x'));
    const r = s.report(0);
    expect(r).toMatchObject({ reward: 1, error: null });
    const refused =
      "simulations.0.messages.0.AssistantMessage.cost: Input should be a valid number, unable to parse string as a number [type=float_parsing, input_value='x', input_type=str]";
    expect(r.tau2_would_refuse).toBe(refused);
    expect(tau2Summary(r).reasonTexts).toEqual([`${TAU2_WOULD_REFUSE}${refused}`]);
    // τ² loads none of the file: every other verdict is marked with the same refusal.
    expect(s.report(3).tau2_would_refuse).toBe(refused);
    // The offline report says it for the run and on each row (escaped as the report escapes any text).
    const html = [...tau2ReportParts(s, 'sample.json')].join('');
    const shown = `${TAU2_WOULD_REFUSE}${refused}`.replaceAll("'", '&#39;');
    expect(html.split(shown).length - 1).toBeGreaterThanOrEqual(1 + s.size);
  });

  it('turn_idx "3" is read by pydantic as 3 (no mark); turn_idx "x" and 3.5 are refused, marked', async () => {
    expect((await mockSample((run) => (messages(run)[1]!.turn_idx = '3'))).report(0).tau2_would_refuse).toBeNull();
    expect((await mockSample((run) => (messages(run)[1]!.turn_idx = 'x'))).report(0).tau2_would_refuse).toBe(
      "simulations.0.messages.1.UserMessage.turn_idx: Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='x', input_type=str]",
    );
    expect((await mockSample((run) => (messages(run)[3]!.turn_idx = 3.5))).report(0).tau2_would_refuse).toBe(
      'simulations.0.messages.3.ToolMessage.turn_idx: Input should be a valid integer, got a number with a fractional part [type=int_from_float, input_value=3.5, input_type=float]',
    );
  });

  it('reward_info "x": marked where the task counts no NL assertion; not evaluable where it does (the recorded NL verdicts are read)', async () => {
    const refused = "simulations.0.reward_info: Input should be an object [type=model_type, input_value='x', input_type=str]";
    const plain = await mockSample((run) => (run.simulations[0]!.reward_info = 'x'));
    expect(plain.report(0)).toMatchObject({ reward: 1, error: null, tau2_would_refuse: refused });
    const nl = await mockSample((run) => {
      run.simulations[0]!.reward_info = 'x';
      Object.assign(run.tasks[0]!.evaluation_criteria as object, { reward_basis: ['DB', 'NL_ASSERTION'], nl_assertions: ['the task is done'] });
    });
    expect(nl.report(0)).toMatchObject({ reward: 0, error: `${TAU2_UNREADABLE}${refused}` });
  });

  it('a recorded NL verdict is read as RewardInfo reads it: met "yes" is True, met "maybe" is refused (not evaluable where NL counts)', async () => {
    const nl = (met: unknown) =>
      mockSample((run) => {
        Object.assign(run.tasks[0]!.evaluation_criteria as object, { reward_basis: ['DB', 'NL_ASSERTION'], nl_assertions: ['the task is done'] });
        (run.simulations[0]!.reward_info as Record<string, unknown>).nl_assertions = [{ nl_assertion: 'the task is done', met, justification: 'j' }];
      });
    expect((await nl('yes')).report(0)).toMatchObject({ reward: 1, error: null, tau2_would_refuse: null });
    expect((await nl(false)).report(0)).toMatchObject({ reward: 0, error: null });
    expect((await nl('maybe')).report(0).error).toBe(
      `${TAU2_UNREADABLE}simulations.0.reward_info.nl_assertions.0.met: Input should be a valid boolean, unable to interpret input [type=bool_parsing, input_value='maybe', input_type=str]`,
    );
  });

  it('a simulation whose review, timestamp or seed τ² refuses: marked; its messages’ content a number: not evaluable', async () => {
    const review = await mockSample((run) => (run.simulations[0]!.review = { summary: 'x' }));
    expect(review.report(0).tau2_would_refuse).toMatch(/^simulations\.0\.review\.has_errors: Field required \[type=missing, /);
    const content = await mockSample((run) => (messages(run)[6]!.content = 5));
    expect(content.report(0).error).toBe(
      `${TAU2_UNREADABLE}simulations.0.messages.6.AssistantMessage.content: Input should be a valid string [type=string_type, input_value=5, input_type=int]`,
    );
  });

  it('a message’s audio effects and a simulation’s effect timeline are validated too (a voice field on a text message: marked)', async () => {
    const effects = await mockSample((run) => (messages(run)[1]!.speech_effects = { speech_insert: { text: 'um', type: 'cough' } }));
    expect(effects.report(0).tau2_would_refuse).toBe(
      "simulations.0.messages.1.UserMessage.speech_effects.speech_insert.type: Input should be 'vocal_tic' or 'non_directed_phrase' [type=literal_error, input_value='cough', input_type=str]",
    );
    const timeline = await mockSample((run) => (run.simulations[0]!.effect_timeline = { events: [{ effect_type: 'telephony', start_ms: 0 }] }));
    expect(timeline.report(0).tau2_would_refuse).toMatch(/^simulations\.0\.effect_timeline\.events\.0\.participant: Field required \[type=missing, /);
    const fine = await mockSample((run) => {
      messages(run)[1]!.channel_effects = { frame_drops_enabled: true, frame_drop_ms: 20 };
      run.simulations[0]!.effect_timeline = { events: [{ effect_type: 'frame_drop', start_ms: 5, participant: 'user' }] };
    });
    expect(fine.report(0).tau2_would_refuse).toBeNull();
  });

  it('info’s voice parts: a persona config τ² refuses is marked; an audio-native config it refuses leaves no verdict (it makes the run full duplex)', async () => {
    const persona = await mockSample((run) => ((run.info.user_info as Record<string, unknown>).persona_config = { verbosity: 'loud' }));
    expect(persona.report(0)).toMatchObject({
      reward: 1,
      tau2_would_refuse: "info.user_info.persona_config.verbosity: Input should be 'standard' or 'minimal' [type=enum, input_value='loud', input_type=str]",
    });
    const audio = await mockSample((run) => (run.info.audio_native_config = { provider: 'skype' }));
    expect(audio.report(0).error).toBe(
      `${TAU2_UNREADABLE}info.audio_native_config.provider: Input should be 'openai', 'gemini', 'xai', 'nova', 'qwen' or 'livekit' [type=literal_error, input_value='skype', input_type=str]`,
    );
  });

  it('a task without user_scenario: marked', async () => {
    const s = await mockSample((run) => delete run.tasks[2]!.user_scenario);
    expect(s.report(0)).toMatchObject({
      reward: 1,
      error: null,
      tau2_would_refuse: expect.stringMatching(/^tasks\.2\.user_scenario: Field required \[type=missing, /),
    });
  });
});

describe('what pydantic’s JSON parser (jiter) refuses in a one-file results file', () => {
  it('recursion limit and lone surrogates, word for word as pydantic-core 2.46 says them', () => {
    const deep = (n: number) => `{"a":${'['.repeat(n)}${']'.repeat(n)}}`;
    expect(tau2JsonRefusal(deep(200))).toBeNull();
    expect(tau2JsonRefusal(deep(201))).toBe(
      'a.0.0.0.0.0.0.0.…: Invalid JSON: recursion limit exceeded at line 1 column 206 [type=json_invalid, input_value=\'{"a":[[[[[[[[[[[[[[[[[[[...]]]]]]]]]]]]]]]]]]]]]]}\', input_type=str]',
    );
    const objects = (n: number) => `{"a":${'{"b":'.repeat(n)}1${'}'.repeat(n)}}`;
    expect(tau2JsonRefusal(objects(199))).toBeNull();
    expect(tau2JsonRefusal(objects(200))).toMatch(/: Invalid JSON: recursion limit exceeded at line 1 column 1006 \[type=json_invalid, /);
    expect(tau2JsonRefusal(`{"a":\n  ${'['.repeat(201)}${']'.repeat(201)}}`)).toMatch(/recursion limit exceeded at line 2 column 203 /);
    const cases: [string, string][] = [
      ['{"a":"\\ud800"}', 'unexpected end of hex escape at line 1 column 13'],
      ['{"a":"\\ud800x"}', 'unexpected end of hex escape at line 1 column 13'],
      ['{"a":"\\udc00"}', 'lone leading surrogate in hex escape at line 1 column 12'],
      ['{"a":"x\\ud800\\u0041"}', 'lone leading surrogate in hex escape at line 1 column 19'],
      ['{"a":"\\ud800\\ud800"}', 'lone leading surrogate in hex escape at line 1 column 18'],
      ['{"a":"\\ud800\\\\"}', 'unexpected end of hex escape at line 1 column 14'],
      ['{"a":"\\ud800\\n"}', 'unexpected end of hex escape at line 1 column 14'],
      ['{"é":1,"a":"\\udc00"}', 'lone leading surrogate in hex escape at line 1 column 19'],
      ['{"😀":1,"a":"\\udc00"}', 'lone leading surrogate in hex escape at line 1 column 21'],
    ];
    for (const [text, said] of cases) expect(tau2JsonRefusal(text), text).toMatch(new RegExp(`^a: Invalid JSON: ${said} \\[type=json_invalid, input_value='`));
    expect(tau2JsonRefusal('{"a":"\\ud800"}')).toBe(
      `a: Invalid JSON: unexpected end of hex escape at line 1 column 13 [type=json_invalid, input_value='{"a":"\\\\ud800"}', input_type=str]`,
    );
    expect(tau2JsonRefusal('{"a":"\\ud83d\\ude00", "b": "\\u00e9"}')).toBeNull();
    // The first in document order: a surrogate before a too-deep value.
    expect(tau2JsonRefusal(`{"a":["\\udc00", ${'['.repeat(300)}${']'.repeat(300)}]}`)).toMatch(
      /^a\.0: Invalid JSON: lone leading surrogate in hex escape at line 1 column 13 /,
    );
  });

  it('readTau2Text scans for them only when it must, and then says the same (the depth parseJson found, a surrogate escape)', () => {
    const file = (a: string) => `{"info":{},"tasks":[],"simulations":[],"a":${a}}`;
    const deepest = { value: -1 };
    parseJson(file('[[1]]'), { deepest });
    expect(deepest.value).toBe(3);
    parseJson('1', { deepest });
    expect(deepest.value).toBe(0);
    const texts = [
      ...[198, 199, 200, 201, 300].map((n) => file(`${'['.repeat(n)}${']'.repeat(n)}`)),
      ...[198, 199, 200].map((n) => file(`${'{"b":'.repeat(n)}1${'}'.repeat(n)}`)),
      ...['"\\ud800"', '"\\uDC00"', '"\\uDbFf"', '"\\ud83d\\ude00"', '"\\\\ud800"', '"\\u00e9"', '"ud800"'].map(file),
      // Pairs pass without the scan; a lone one beside a pair, or after an escaped backslash, is found by it.
      ...['"\\uD83D\\uDE00 \\ud83c\\udf89"', '"\\ud83d\\ude00\\udc00"', '"\\ud83d\\ud83d\\ude00"', '"x\\\\\\ud800"', '"\\\\ud83d\\ude00"'].map(file),
    ];
    for (const text of texts) {
      const said = tau2JsonRefusal(text);
      const run = readTau2Text(text)!;
      if (said === null) expect(run.refusal.first ?? '', text.slice(0, 80)).not.toMatch(/Invalid JSON/);
      else expect(run.refusal.first, text.slice(0, 80)).toBe(said);
    }
    expect(texts.filter((t) => tau2JsonRefusal(t) !== null)).toHaveLength(10);
  });

  it('tool-call arguments nested past the limit: the verdict stands, marked with where and what jiter says', async () => {
    // root, simulations, the simulation, messages, the message, tool_calls, the call, arguments: 8 containers, so the
    // 194th nested list of an argument is the 201st container around a value.
    const nested = (n: number) => async () =>
      mockSample(
        () => {},
        (json) => json.replace('"arguments":{}', `"arguments":{"a":${'['.repeat(n)}${']'.repeat(n)}}`),
      );
    expect(mockSampleText()).toContain('"arguments": {}');
    const ok = await (await nested(193))();
    expect(ok.report(0).tau2_would_refuse).toBeNull();
    const deep = await (await nested(194))();
    const r = deep.report(0);
    expect(r.error).toBeNull();
    expect(r.tau2_would_refuse).toMatch(
      /^simulations\.0\.messages\.2\.tool_calls\.0\.arguments\.a\.…: Invalid JSON: recursion limit exceeded at line 1 column \d+ \[type=json_invalid, input_value='\{"timestamp":.*', input_type=str\]$/,
    );
  });

  it('a lone surrogate in a message: the one-file results file is refused (marked); the same simulation in a run folder is read (json.loads)', async () => {
    const s = await mockSample(
      () => {},
      (json) => json.replace('"content":"Hello, what can I do for you?"', '"content":"Hello, \\ud800 what can I do for you?"'),
    );
    const r = s.report(0);
    expect(r).toMatchObject({ reward: 1, error: null });
    expect(r.tau2_would_refuse).toMatch(/^simulations\.0\.messages\.0\.content: Invalid JSON: unexpected end of hex escape at line 1 column \d+ /);
    const run = JSON.parse(mockSampleText()) as SampleRun;
    const sim = JSON.stringify(run.simulations[0]).replace('what can I do', '\\ud800 what can I do');
    expect(sim).toContain('\\ud800');
    const folder = readTau2Folder(JSON.stringify({ ...run, simulations: [] }), [{ name: 'a.json', text: sim }]);
    expect(folder.refusal.first).toBeNull();
  });
});

describe('a replay τ² raises on', () => {
  it('a tool message whose content is null after a write: set_state’s json.loads raises TypeError, so no verdict; after a read (not replayed) the verdict stands', async () => {
    const afterWrite = await mockSample((run) => {
      const m = messages(run);
      const i = m.findIndex((x) => x.tool_calls?.some((c) => (c as { name?: string }).name === 'update_task_status'));
      m[i + 1]!.content = null;
    });
    expect(afterWrite.report(0)).toMatchObject({ reward: 0, error: 'TypeError: the JSON object must be str, bytes or bytearray, not NoneType' });
    const afterRead = await mockSample((run) => {
      const m = messages(run);
      const i = m.findIndex((x) => x.tool_calls?.some((c) => (c as { name?: string }).name === 'get_users'));
      m[i + 1]!.content = null;
    });
    expect(afterRead.report(0)).toMatchObject({ reward: 1, error: null, tau2_would_refuse: null });
  });
});
