/**
 * τ² results files in shapes other τ² releases and other tools write, built from a shared run at test
 * time: each case is what τ²'s own code (v0.1.0 … v1.0.1, pydantic 2) does with that shape.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTau2Folder, readTau2Text } from '../../../../src/core/model/episode/tau2/results';
import { TAU2_UNREADABLE } from '../../../../src/core/judge/tau2/evaluate';
import { describeTau2, TAU2_DIR } from '../../../support/shared';
import { Tau2Session } from '../../../../src/core/session/tau2/session';
import { openTau2Edited, tau2Read } from '../../../support/tau2';

const MOCK_RUN = 'sierra-research__pr170-e2e-mock-baseline.json';

describeTau2('τ² results files of other releases and shapes', () => {
  describe('SimulationRun’s scalar fields (required and typed the same from v0.1.0 to v1.0.1)', () => {
    const edited = (edit: (sim: Record<string, unknown>) => void) =>
      openTau2Edited(MOCK_RUN, (run) => {
        const sim = run.simulations[0]!;
        const copy = structuredClone(sim);
        edit(copy);
        run.simulations = [copy, { ...sim, id: 'untouched' }];
      });

    it('a simulation without duration, start_time, end_time or id (a file re-saved by another tool): τ² refuses the file, the verdict (which reads none of them) stands, marked with pydantic’s words', async () => {
      for (const key of ['duration', 'start_time', 'end_time', 'id']) {
        const s = await edited((sim) => delete sim[key]);
        const refused = expect.stringMatching(
          new RegExp(`^simulations\\.0\\.${key}: Field required \\[type=missing, input_value=\\{.*\\}, input_type=dict\\]$`),
        );
        expect(s.report(0)).toMatchObject({ reward: 1, error: null, tau2_would_refuse: refused });
        // τ² refuses the whole file: the untouched simulation's verdict is marked too, with the file's first refusal.
        expect(s.report(1)).toMatchObject({ error: null, reward: 1, tau2_would_refuse: refused });
      }
    });

    it('an int task_id is refused as pydantic refuses it (str fields take no int), not reported as a task missing from the file', async () => {
      const s = await edited((sim) => (sim.task_id = 5));
      expect(s.report(0).error).toBe(
        `${TAU2_UNREADABLE}simulations.0.task_id: Input should be a valid string [type=string_type, input_value=5, input_type=int]`,
      );
    });

    it('lax numbers: trial "2" and duration "3.5" validate (pydantic coerces them), trial "x" and 1.5 do not', async () => {
      for (const [key, value] of [
        ['trial', '2'],
        ['duration', '3.5'],
        ['trial', null],
        ['seed', null],
      ] as const) {
        const s = await edited((sim) => (sim[key] = value));
        expect(s.report(0)).toMatchObject({ error: null, reward: 1, tau2_would_refuse: null });
        if (key === 'trial') expect(s.report(0).trial).toBe(value === null ? null : 2);
      }
      // The verdict reads no trial: it stands, marked.
      const x = await edited((sim) => (sim.trial = 'x'));
      expect(x.report(0)).toMatchObject({
        error: null,
        tau2_would_refuse:
          "simulations.0.trial: Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='x', input_type=str]",
      });
      const half = await edited((sim) => (sim.trial = 1.5));
      expect(half.report(0).tau2_would_refuse).toBe(
        'simulations.0.trial: Input should be a valid integer, got a number with a fractional part [type=int_from_float, input_value=1.5, input_type=float]',
      );
    });
  });
  it('a voice run told by its info alone (audio_native_config, the voice-streaming user; saved before SimulationRun.mode or without ticks) is full duplex: without ticks, τ²’s evaluator raises where a check reads them', async () => {
    const edits: ((info: Record<string, unknown>) => void)[] = [
      (info) => (info.audio_native_config = { provider: 'openai' }),
      (info) => ((info.user_info as Record<string, unknown>).implementation = 'voice_streaming_user_simulator'),
    ];
    for (const edit of edits) {
      const s = await openTau2Edited(MOCK_RUN, (run) => edit((run as unknown as { info: Record<string, unknown> }).info));
      expect(s.report(0)).toMatchObject({
        reward: 0,
        db_match: null,
        error: expect.stringMatching(/^TypeError: 'NoneType' object is not iterable — a full-duplex \(voice\) simulation that records no ticks/),
      });
    }
    const plain = await openTau2Edited(MOCK_RUN, (run) => ((run as unknown as { info: Record<string, unknown> }).info.audio_native_config = null));
    expect(plain.report(0)).toMatchObject({ error: null, reward: 1 });
  });
  describe('tool messages: ToolMessage needs an id; without one and with tool_messages it is a MultiToolMessage', () => {
    type Msg = { role: string; id?: unknown; tool_calls?: unknown[] | null; tool_messages?: unknown[] };
    const edited = (edit: (messages: Msg[]) => void) =>
      openTau2Edited(MOCK_RUN, (run) => {
        const sim = structuredClone(run.simulations[0]!);
        edit(sim.messages as Msg[]);
        run.simulations = [sim];
      });

    it('a tool message without an id (τ² v0.1.0 to v1.0.1 require it) is refused, said where; it was paired as id ""', async () => {
      const s = await edited((messages) => delete messages.find((m) => m.role === 'tool')!.id);
      expect(s.report(0).error).toMatch(/^not evaluable: .*: simulations\.0\.messages\.\d+\.ToolMessage\.id: Field required \[type=missing, /);
    });

    it('a MultiToolMessage where no call waits is skipped by the replay; where a call waits for its answer the replay stops, as set_state raises', async () => {
      const skipped = await edited((messages) => {
        const tool = messages.find((m) => m.role === 'tool')!;
        messages.push({ role: 'tool', tool_messages: [structuredClone(tool)] });
      });
      expect(skipped.report(0)).toMatchObject({ error: null, reward: 1 });
      const waiting = await edited((messages) => {
        const i = messages.findIndex((m) => m.role === 'tool');
        messages[i] = { role: 'tool', tool_messages: [messages[i]] };
      });
      expect(waiting.report(0)).toMatchObject({
        reward: 0,
        error: "ValueError: Tool message expected. Got <class 'tau2.data_model.message.MultiToolMessage'>",
      });
    });
  });
  describe('the "dir" format (results.json + simulations/<id>.json, τ² v1.0.x’s Results.load)', () => {
    const parts = () => {
      const run = JSON.parse(readFileSync(join(TAU2_DIR, 'runs', MOCK_RUN), 'utf8')) as { simulations: { id: string }[] };
      const sims = run.simulations.map((s) => ({ name: `${s.id}.json`, text: JSON.stringify(s) }));
      return { run, sims, index: run.simulations.map((s) => ({ id: s.id, task_id: '0', trial: 0 })) };
    };

    it('the simulations are simulations/’s files: a list inside results.json beside them is not read twice, a note says so', () => {
      const { run, sims } = parts();
      const folder = readTau2Folder(JSON.stringify(run), sims);
      expect(folder.simulations.map((x) => x.id)).toEqual(run.simulations.map((x) => x.id));
      expect(folder.notes).toEqual([
        `results.json lists 1 simulation of its own beside simulations/: τ² reads a run folder's simulations from simulations/ only, and so does this reading`,
      ]);
      expect(readTau2Folder(JSON.stringify({ ...run, simulations: [] }), sims).notes).toEqual([]);
    });

    it('simulation_index that does not list exactly the files (τ²’s integrity check refuses the folder) is named in a note', () => {
      const { run, sims, index } = parts();
      const meta = (idx: unknown[]) => JSON.stringify({ ...run, simulations: [], simulation_index: idx });
      expect(readTau2Folder(meta(index), sims).notes).toEqual([]);
      const notes = readTau2Folder(meta([...index, { id: 'gone', task_id: '0', trial: 0 }]), [...sims, { name: 'stray.json', text: sims[0]!.text }]).notes;
      expect(notes).toEqual([
        'τ² refuses this run folder (its integrity check): simulation_index lists 1 simulation without a file in simulations/ (gone); simulations/ holds 1 file not in simulation_index (stray)',
      ]);
    });
  });
  it('messages null or absent (Optional from v1.0.0): τ²’s evaluator raises where a check reads the trajectory, and judges a task with nothing to check', async () => {
    const dropped = (edit: (task: { evaluation_criteria: Record<string, unknown> }) => void, messages?: unknown) =>
      openTau2Edited(MOCK_RUN, (run) => {
        const sim = structuredClone(run.simulations[0]!);
        if (messages === undefined) delete sim.messages;
        else sim.messages = messages;
        edit(run.tasks.find((t) => t.id === sim.task_id) as { evaluation_criteria: Record<string, unknown> });
        run.simulations = [sim];
      });
    const raises = await dropped(() => {});
    expect(raises.report(0)).toMatchObject({ reward: 0, db_match: null, error: expect.stringMatching(/^TypeError: 'NoneType' object is not iterable/) });
    const nothingToCheck = await dropped(
      (task) => Object.assign(task.evaluation_criteria, { actions: null, env_assertions: null, communicate_info: [] }),
      null,
    );
    expect(nothingToCheck.report(0)).toMatchObject({ error: null, reward: 1 });
    const text = await dropped(() => {}, 'hello');
    expect(text.report(0).error).toBe(
      `${TAU2_UNREADABLE}simulations.0.messages: Input should be a valid array [type=list_type, input_value='hello', input_type=str]`,
    );
  });
  it('info as every release requires it (git_commit, num_trials, max_steps, max_errors, each implementation, domain_name, policy): a file without one is named as refused', async () => {
    const REFUSED_INFO = 'τ² refuses this results file: ';
    type Info = Record<string, Record<string, unknown>>;
    const withInfo = (edit: (info: Info) => void) =>
      readTau2Text(
        (() => {
          const run = JSON.parse(readFileSync(join(TAU2_DIR, 'runs', MOCK_RUN), 'utf8')) as { info: Info };
          edit(run.info);
          return JSON.stringify(run);
        })(),
      )!;
    expect(withInfo(() => {}).notes).toEqual([]);
    expect(withInfo((info) => delete info.git_commit).notes).toEqual([
      expect.stringMatching(/^τ² refuses this results file: info\.git_commit: Field required \[type=missing, input_value=\{.*\}, input_type=dict\]$/),
    ]);
    expect(withInfo((info) => delete info.agent_info!.implementation).notes).toEqual([
      expect.stringMatching(/^τ² refuses this results file: info\.agent_info\.implementation: Field required \[type=missing, /),
    ]);
    expect(withInfo((info) => (info.num_trials = 'four' as never)).notes).toEqual([
      `${REFUSED_INFO}info.num_trials: Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='four', input_type=str]`,
    ]);
    // A field no verdict reads: the verdicts are still given, marked.
    const s = await openTau2Edited(MOCK_RUN, (run) => delete (run as unknown as { info: Info }).info.environment_info!.policy);
    expect(s.report(0)).toMatchObject({ error: null, reward: 1, tau2_would_refuse: expect.stringMatching(/^info\.environment_info\.policy: Field required /) });
    // Who the agent is (solo mode) is read by every verdict: none is given.
    const noAgent = await openTau2Edited(MOCK_RUN, (run) => delete (run as unknown as { info: Info }).info.agent_info!.implementation);
    expect(noAgent.report(0)).toMatchObject({ reward: 0, error: expect.stringMatching(/^not evaluable: .*info\.agent_info\.implementation: Field required/) });
    await expect(openTau2Edited(MOCK_RUN, (run) => delete (run as unknown as { info?: Info }).info)).rejects.toThrow(
      /the file names no domain \(info\.environment_info\.domain_name: the file has no info\)/,
    );
  });
  describe('evaluation criteria as τ²’s Action, EnvAssertion and EvaluationCriteria validate them', () => {
    type Criteria = Record<string, unknown> & { actions: Record<string, unknown>[] };
    // The task edited, the simulation's text kept as it is (written again by JSON.stringify, a recorded `2.0` argument
    // would become `2`, its replayed answer would no longer be the recorded one, and the strict replay would raise).
    const withCriteria = async (file: string, edit: (ec: Criteria) => void) => {
      const text = readFileSync(join(TAU2_DIR, 'runs', file), 'utf8');
      const run = JSON.parse(text) as { simulations: { task_id: string }[]; tasks: { id: string; evaluation_criteria: unknown }[] };
      expect(run.simulations).toHaveLength(1);
      edit(run.tasks.find((t) => t.id === run.simulations[0]!.task_id)!.evaluation_criteria as Criteria);
      const [head, sims] = [text.slice(0, text.indexOf('"tasks"')), text.slice(text.indexOf('"simulations"'))];
      return Tau2Session.open(Tau2Session.read(`${head}"tasks": ${JSON.stringify(run.tasks)}, ${sims}`), tau2Read);
    };

    it('an env assertion’s assert_value is a lax bool: "false" or 0 asserts False (it was read as the default, True)', async () => {
      const TELECOM_RUN = 'sierra-research__gym-gpt-4.1-telecom-solo-1task.json';
      const as = (value: unknown) => withCriteria(TELECOM_RUN, (ec) => ((ec.env_assertions as Record<string, unknown>[])[0]!.assert_value = value));
      expect((await as(true)).report(0)).toMatchObject({ reward: 1, error: null });
      for (const value of ['false', 0, 'off']) {
        const r = (await as(value)).report(0);
        expect(r, String(value)).toMatchObject({ reward: 0, error: null });
        expect(r.env_assertions![0]!.met).toBe(false);
      }
      expect((await as('maybe')).report(0).error).toMatch(
        /^not evaluable: .*: tasks\.\d+\.evaluation_criteria\.env_assertions\.0\.assert_value: Input should be a valid boolean, unable to interpret input \[type=bool_parsing, input_value='maybe', input_type=str\]$/,
      );
    });

    it('a reference action without action_id, with arguments that are not an object, or a reward_basis of null is refused, said where', async () => {
      const cases: [(ec: Criteria) => void, RegExp][] = [
        [(ec) => delete ec.actions[0]!.action_id, /evaluation_criteria\.actions\.0\.action_id: Field required \[type=missing, /],
        [
          (ec) => (ec.actions[0]!.arguments = '{}'),
          /evaluation_criteria\.actions\.0\.arguments: Input should be an object \[type=dict_type, input_value='\{\}', input_type=str\]$/,
        ],
        [
          (ec) => (ec.actions[0]!.requestor = 'system'),
          /evaluation_criteria\.actions\.0\.requestor: Input should be 'user' or 'assistant' \[type=literal_error, /,
        ],
        [
          (ec) => (ec.reward_basis = null),
          /evaluation_criteria\.reward_basis: Input should be a valid array \[type=list_type, input_value=None, input_type=NoneType\]$/,
        ],
      ];
      for (const [edit, error] of cases) {
        const r = (await withCriteria(MOCK_RUN, edit)).report(0);
        expect(r.reward).toBe(0);
        expect(r.error).toMatch(error);
      }
      // Without reward_basis the default applies (DB, COMMUNICATE), as before.
      expect((await withCriteria(MOCK_RUN, (ec) => delete ec.reward_basis)).report(0)).toMatchObject({
        error: null,
        reward: 1,
        reward_basis: ['DB', 'COMMUNICATE'],
      });
    });
  });
  it('NL assertions in the basis with no verdict recorded (a file re-saved without them): counted as met, and the finding says τ² would have asked an LLM', async () => {
    const nl = (recorded: unknown) =>
      openTau2Edited(MOCK_RUN, (run) => {
        const sim = run.simulations[0]!;
        const ec = run.tasks.find((t) => t.id === sim.task_id)!.evaluation_criteria as Record<string, unknown>;
        ec.reward_basis = ['DB', 'NL_ASSERTION'];
        (sim.reward_info as Record<string, unknown>).nl_assertions = recorded;
        run.simulations = [sim];
      });
    const texts = async (recorded: unknown) =>
      ((await nl(recorded)).report(0).findings as { kind: string; text: string }[]).filter((f) => f.kind === 'nl-recorded');
    for (const recorded of [null, []]) {
      expect((await nl(recorded)).report(0)).toMatchObject({ reward: 1, error: null });
      expect((await texts(recorded))[0]!.text).toMatch(/records no verdict of them: τ² would ask an LLM/);
    }
    expect((await texts([{ nl_assertion: 'x', met: true, justification: 'j' }]))[0]!.text).toMatch(/taken from the file as recorded/);
  });
});
