/**
 * τ²'s results-file models (`Results` and every model it holds, as `Results.load` validates them, v1.0.1), declared
 * once with the pydantic emulation: data_model/tasks.py, message.py, simulation.py, environment.py's
 * `EnvironmentInfo`. Used to find every field τ² refuses in a file (`tau2-refusals.ts`), which either makes a
 * simulation not evaluable (the verdict reads it) or marks its verdict "τ² would refuse this file".
 *
 * Not declared field by field: a simulation's speech environment and info's voice settings (their effect configs hold
 * constrained numbers and tuples this emulation does not have), taken as any value. Full-duplex simulations are not judged by this version, and a text
 * run carries none of them. A message's audio effects and a simulation's effect timeline are declared.
 */
// Python parity: pydantic 2 models of τ² v1.0.1 (data_model/*.py), field order and defaults as declared.
import { defineModel, EnumClass, field, t, type FieldType, type ModelClass } from '../../../py/pydantic';

const opt = t.optional;
const none = { default: null };
const m = (f: () => ModelClass): FieldType => t.model(f);
/** A voice-only part, not checked (see the file's comment). */
const voicePart = t.any;
const dict = t.dict(t.any, t.any);
const REQUESTOR = t.literal('user', 'assistant');

export const REWARD_TYPE = new EnumClass('RewardType', [
  ['DB', 'DB'],
  ['ENV_ASSERTION', 'ENV_ASSERTION'],
  ['NL_ASSERTION', 'NL_ASSERTION'],
  ['ACTION', 'ACTION'],
  ['COMMUNICATE', 'COMMUNICATE'],
]);
const TOOL_TYPE = new EnumClass('ToolType', [
  ['READ', 'read'],
  ['WRITE', 'write'],
  ['THINK', 'think'],
  ['GENERIC', 'generic'],
]);
const TASK_ISSUE_STATUS = new EnumClass('TaskIssueStatus', [
  ['OPEN', 'open'],
  ['RESOLVED', 'resolved'],
  ['WONT_FIX', 'wont_fix'],
]);
const AUDIO_ENCODING = new EnumClass('AudioEncoding', [
  ['ULAW', 'ulaw'],
  ['ALAW', 'alaw'],
  ['PCM_U8', 'pcm_u8'],
  ['PCM_S16LE', 'pcm_s16le'],
  ['PCM_S24LE', 'pcm_s24le'],
  ['PCM_S32LE', 'pcm_s32le'],
]);
export const TERMINATION_REASON = new EnumClass('TerminationReason', [
  ['USER_STOP', 'user_stop'],
  ['AGENT_STOP', 'agent_stop'],
  ['MAX_STEPS', 'max_steps'],
  ['TIMEOUT', 'timeout'],
  ['TOO_MANY_ERRORS', 'too_many_errors'],
  ['AGENT_ERROR', 'agent_error'],
  ['USER_ERROR', 'user_error'],
  ['INFRASTRUCTURE_ERROR', 'infrastructure_error'],
  ['CONTEXT_WINDOW_EXCEEDED', 'context_window_exceeded'],
  ['UNEXPECTED_ERROR', 'unexpected_error'],
]);

// ---- message.py ----

export const ToolCallModel = defineModel('ToolCall', [
  field('id', t.str, { default: '' }),
  field('name', t.str),
  field('arguments', dict),
  field('requestor', REQUESTOR, { default: 'assistant' }),
]);

const SystemMessage = defineModel('SystemMessage', [
  field('role', t.literal('system')),
  field('content', opt(t.str), none),
  field('turn_idx', opt(t.int), none),
  field('timestamp', opt(t.str), none),
]);

const TurnTakingAction = defineModel('TurnTakingAction', [
  field('action', t.str),
  field('info', opt(t.str), none),
  field('interrupt_check_seconds', opt(t.float), none),
  field('interrupt_check_cost', opt(t.float), none),
  field('interrupt_check_usage', opt(dict), none),
  field('backchannel_check_seconds', opt(t.float), none),
  field('backchannel_check_cost', opt(t.float), none),
  field('backchannel_check_usage', opt(dict), none),
  field('llm_generation_seconds', opt(t.float), none),
  field('tts_synthesis_seconds', opt(t.float), none),
]);

const AudioFormat = defineModel('AudioFormat', [
  field('encoding', t.enum(AUDIO_ENCODING), { default: 'ulaw' }),
  field('sample_rate', t.int, { default: 8000n }),
  field('channels', t.literal(1n, 2n), { default: 1n }),
]);

// ---- audio_effects.py (what a voice message and simulation record) ----

const UserSpeechInsert = defineModel('UserSpeechInsert', [field('text', t.str), field('type', t.literal('vocal_tic', 'non_directed_phrase'))]);
const SpeechEffectsResult = defineModel('SpeechEffectsResult', [
  field('dynamic_muffling_enabled', t.bool, { default: false }),
  field('speech_insert', opt(m(() => UserSpeechInsert)), none),
]);
const SourceEffectsResult = defineModel('SourceEffectsResult', [
  field('burst_noise_file', opt(t.str), none),
  field('speech_insert', opt(m(() => UserSpeechInsert)), none),
]);
const ChannelEffectsResult = defineModel('ChannelEffectsResult', [
  field('frame_drops_enabled', t.bool, { default: false }),
  field('frame_drop_ms', t.int, { default: 0n }),
]);
const EffectEvent = defineModel('EffectEvent', [
  field('effect_type', t.literal('background_noise', 'burst_noise', 'out_of_turn_speech', 'telephony', 'frame_drop')),
  field('start_ms', t.int),
  field('end_ms', opt(t.int), none),
  field('participant', t.literal('user', 'agent')),
  field('params', opt(dict), none),
]);
const EffectTimeline = defineModel('EffectTimeline', [field('events', t.list(m(() => EffectEvent)), { factory: () => [] })]);

/** ParticipantMessageBase with its `role` narrowed (AssistantMessage, UserMessage). */
const participantMessage = (name: string, role: string): ModelClass =>
  defineModel(name, [
    field('role', t.literal(role)),
    field('content', opt(t.str), none),
    field('tool_calls', opt(t.list(m(() => ToolCallModel))), none),
    field('is_audio', t.bool, { default: false }),
    field('turn_idx', opt(t.int), none),
    field('timestamp', opt(t.str), none),
    field('cost', opt(t.float), none),
    field('usage', opt(dict), none),
    field('raw_data', opt(dict), none),
    field('generation_time_seconds', opt(t.float), none),
    field('audio_format', opt(m(() => AudioFormat)), none),
    field('audio_content', opt(t.str), none),
    field('audio_path', opt(t.str), none),
    field('audio_script_gold', opt(t.str), none),
    field('speech_effects', opt(m(() => SpeechEffectsResult)), none),
    field('source_effects', opt(m(() => SourceEffectsResult)), none),
    field('channel_effects', opt(m(() => ChannelEffectsResult)), none),
    field('turn_taking_action', opt(m(() => TurnTakingAction)), none),
    field('utterance_ids', opt(t.list(t.str)), none),
    field('chunk_id', opt(t.int), none),
    field('is_final_chunk', t.bool, { default: true }),
    field('source', opt(t.str), none),
    field('contains_speech', t.bool, { default: true }),
  ]);
const AssistantMessage = participantMessage('AssistantMessage', 'assistant');
const UserMessage = participantMessage('UserMessage', 'user');

const ToolMessage = defineModel('ToolMessage', [
  field('id', t.str),
  field('role', t.literal('tool')),
  field('content', opt(t.str), none),
  field('requestor', REQUESTOR, { default: 'assistant' }),
  field('error', t.bool, { default: false }),
  field('turn_idx', opt(t.int), none),
  field('timestamp', opt(t.str), none),
]);

const MultiToolMessage = defineModel('MultiToolMessage', [field('role', t.literal('tool')), field('tool_messages', t.list(m(() => ToolMessage)))]);

/** `Message`: the union τ² reads every message as, tried in this order. */
export const MESSAGE_MEMBERS: readonly ModelClass[] = [SystemMessage, AssistantMessage, UserMessage, ToolMessage, MultiToolMessage];
const Message = t.union(...MESSAGE_MEMBERS.map((c) => m(() => c)));

const Tick = defineModel('Tick', [
  field('tick_id', t.int),
  field('timestamp', t.str),
  field('agent_chunk', opt(m(() => AssistantMessage)), none),
  field('user_chunk', opt(m(() => UserMessage)), none),
  field('agent_tool_calls', t.list(m(() => ToolCallModel)), { factory: () => [] }),
  field('user_tool_calls', t.list(m(() => ToolCallModel)), { factory: () => [] }),
  field('agent_tool_results', t.list(m(() => ToolMessage)), { factory: () => [] }),
  field('user_tool_results', t.list(m(() => ToolMessage)), { factory: () => [] }),
  field('user_transcript', opt(t.str), none),
  field('tick_duration_seconds', opt(t.float), none),
  field('wall_clock_duration_seconds', opt(t.float), none),
]);

// ---- tasks.py ----

const StructuredUserInstructions = defineModel('StructuredUserInstructions', [
  field('domain', t.str),
  field('reason_for_call', t.str),
  field('known_info', opt(t.str), none),
  field('unknown_info', opt(t.str), none),
  field('task_instructions', t.str),
]);
const UserScenario = defineModel('UserScenario', [
  field('persona', opt(t.str), none),
  field(
    'instructions',
    t.union(
      m(() => StructuredUserInstructions),
      t.str,
    ),
  ),
]);
const Description = defineModel('Description', [
  field('purpose', opt(t.str), none),
  field('relevant_policies', opt(t.str), none),
  field('notes', opt(t.str), none),
]);
export const ActionModel = defineModel('Action', [
  field('action_id', t.str),
  field('requestor', REQUESTOR, { default: 'assistant' }),
  field('name', t.str),
  field('arguments', dict),
  field('info', opt(t.str), none),
  field('compare_args', opt(t.list(t.str)), none),
]);
const envFunctionCallFields = [field('env_type', REQUESTOR), field('func_name', t.str), field('arguments', dict)];
const EnvFunctionCall = defineModel('EnvFunctionCall', envFunctionCallFields);
export const EnvAssertionModel = defineModel('EnvAssertion', [
  ...envFunctionCallFields,
  field('assert_value', t.bool, { default: true }),
  field('message', opt(t.str), none),
]);
const TaskIssue = defineModel('TaskIssue', [
  field('id', t.str),
  field('title', t.str),
  field('description', opt(t.str), none),
  field('status', t.enum(TASK_ISSUE_STATUS), { default: 'open' }),
  field('resolution', opt(t.str), none),
  field('created_at', opt(t.str), none),
  field('resolved_at', opt(t.str), none),
  field('author_email', opt(t.str), none),
  field('pr_link', opt(t.str), none),
  field('simulation_file', opt(t.str), none),
]);
const EvaluationCriteria = defineModel('EvaluationCriteria', [
  field('actions', opt(t.list(m(() => ActionModel))), none),
  field('env_assertions', opt(t.list(m(() => EnvAssertionModel))), none),
  field('communicate_info', opt(t.list(t.str)), none),
  field('nl_assertions', opt(t.list(t.str)), none),
  field('reward_basis', t.list(t.enum(REWARD_TYPE)), { factory: () => ['DB', 'COMMUNICATE'] }),
]);
const InitializationData = defineModel('InitializationData', [field('agent_data', opt(dict), none), field('user_data', opt(dict), none)]);
const InitialState = defineModel('InitialState', [
  field('initialization_data', opt(m(() => InitializationData)), none),
  field('initialization_actions', opt(t.list(m(() => EnvFunctionCall))), none),
  field('message_history', opt(t.list(Message)), none),
]);
export const TaskModel = defineModel('Task', [
  field('id', t.str),
  field('description', opt(m(() => Description)), none),
  field(
    'user_scenario',
    m(() => UserScenario),
  ),
  field('ticket', opt(t.str), none),
  field('initial_state', opt(m(() => InitialState)), none),
  field('evaluation_criteria', opt(m(() => EvaluationCriteria)), none),
  field('issues', opt(t.list(m(() => TaskIssue))), none),
  field('required_documents', opt(t.list(t.str)), none),
  field('user_tools', opt(t.list(t.str)), none),
]);

// ---- simulation.py ----

export const NLAssertionCheckModel = defineModel('NLAssertionCheck', [field('nl_assertion', t.str), field('met', t.bool), field('justification', t.str)]);
const CommunicateCheck = defineModel('CommunicateCheck', [field('info', t.str), field('met', t.bool), field('justification', t.str)]);
const DBCheck = defineModel('DBCheck', [field('db_match', t.bool), field('db_reward', t.float)]);
const ActionCheck = defineModel('ActionCheck', [
  field(
    'action',
    m(() => ActionModel),
  ),
  field('action_match', t.bool),
  field('action_reward', t.float),
  field('tool_type', opt(t.enum(TOOL_TYPE)), none),
]);
const EnvAssertionCheck = defineModel('EnvAssertionCheck', [
  field(
    'env_assertion',
    m(() => EnvAssertionModel),
  ),
  field('met', t.bool),
  field('reward', t.float),
]);
const RewardInfo = defineModel('RewardInfo', [
  field('reward', t.float),
  field('db_check', opt(m(() => DBCheck)), none),
  field('env_assertions', opt(t.list(m(() => EnvAssertionCheck))), none),
  field('action_checks', opt(t.list(m(() => ActionCheck))), none),
  field('nl_assertions', opt(t.list(m(() => NLAssertionCheckModel))), none),
  field('communicate_checks', opt(t.list(m(() => CommunicateCheck))), none),
  field('reward_basis', opt(t.list(t.enum(REWARD_TYPE))), { factory: () => ['DB'] }),
  field('reward_breakdown', opt(t.dict(t.enum(REWARD_TYPE), t.float)), none),
  field('info', opt(dict), none),
]);
const errorPlace = [field('turn_idx', opt(t.int), none), field('tick_start', opt(t.int), none), field('tick_end', opt(t.int), none)];
const ReviewError = defineModel('ReviewError', [
  field('source', t.literal('user', 'agent', 'unknown')),
  field('error_type', opt(t.str), none),
  field('error_tags', t.list(t.str), { factory: () => [] }),
  field('severity', opt(t.literal('minor', 'critical', 'critical_helped', 'critical_hindered')), none),
  ...errorPlace,
  field('reasoning', t.str),
  field('correct_behavior', opt(t.str), none),
]);
const Review = defineModel('Review', [
  field('summary', t.str, { default: '' }),
  field('agent_error', t.bool, { default: false }),
  field('user_error', t.bool, { default: false }),
  field('critical_user_error', t.bool, { default: false }),
  field('has_errors', t.bool),
  field('errors', t.list(m(() => ReviewError)), { factory: () => [] }),
  field('cost', opt(t.float), none),
]);
const UserOnlyReviewError = defineModel('UserOnlyReviewError', [
  ...errorPlace,
  field('error_type', t.str, { default: 'content_error' }),
  field('error_tags', t.list(t.str), { factory: () => [] }),
  field('severity', opt(t.literal('minor', 'critical')), none),
  field('reasoning', t.str),
  field('user_message', opt(t.str), none),
  field('correct_behavior', opt(t.str), none),
]);
const UserOnlyReview = defineModel('UserOnlyReview', [
  field('summary', t.str, { default: '' }),
  field('user_error', t.bool, { default: false }),
  field('critical_user_error', t.bool, { default: false }),
  field('has_errors', t.bool),
  field('errors', t.list(m(() => UserOnlyReviewError)), { factory: () => [] }),
  field('cost', opt(t.float), none),
]);
const HallucinationCheckError = defineModel('HallucinationCheckError', [
  field('reasoning', t.str),
  field('user_message', opt(t.str), none),
  field('correct_behavior', opt(t.str), none),
]);
const HallucinationCheck = defineModel('HallucinationCheck', [
  field('reasoning', t.str, { default: '' }),
  field('hallucination_found', t.bool, { default: false }),
  field('errors', t.list(m(() => HallucinationCheckError)), { factory: () => [] }),
  field('summary', t.str, { default: '' }),
  field('cost', opt(t.float), none),
]);
const AuthenticationClassification = defineModel('AuthenticationClassification', [
  field('status', t.literal('succeeded', 'failed', 'not_needed')),
  field('reasoning', t.str, { default: '' }),
  field('cost', opt(t.float), none),
]);

export const SimulationRunModel = defineModel('SimulationRun', [
  field('id', t.str),
  field('task_id', t.str),
  field('timestamp', t.str, { default: '' }),
  field('start_time', t.str),
  field('end_time', t.str),
  field('duration', t.float),
  field('termination_reason', t.enum(TERMINATION_REASON)),
  field('agent_cost', opt(t.float), none),
  field('user_cost', opt(t.float), none),
  field('reward_info', opt(m(() => RewardInfo)), none),
  field('messages', opt(t.list(Message)), none),
  field('ticks', opt(t.list(m(() => Tick))), none),
  field('trial', opt(t.int), none),
  field('seed', opt(t.int), none),
  field('mode', t.str, { default: 'half_duplex' }),
  field('speech_environment', voicePart, none),
  field('review', opt(m(() => Review)), none),
  field('user_only_review', opt(m(() => UserOnlyReview)), none),
  field('info', opt(dict), none),
  field('auth_classification', opt(m(() => AuthenticationClassification)), none),
  field('hallucination_retries_used', t.int, { default: 0n }),
  field('hallucination_check', opt(m(() => HallucinationCheck)), none),
  field('provider_session_id', opt(t.str), none),
  field('policy', opt(t.str), none),
  field('effect_timeline', opt(m(() => EffectTimeline)), none),
]);

// ---- Info (simulation.py, environment.py) ----

const ToolSignature = defineModel('ToolSignature', [
  field('name', t.str),
  field('doc', t.str),
  field('params', opt(dict), none),
  field('returns', opt(dict), none),
]);
const VERBOSITY = new EnumClass('Verbosity', [
  ['STANDARD', 'standard'],
  ['MINIMAL', 'minimal'],
]);
const INTERRUPT_TENDENCY = new EnumClass('InterruptTendency', [
  ['WAITS', 'waits'],
  ['INTERRUPTS', 'interrupts'],
]);
const PersonaConfig = defineModel('PersonaConfig', [
  field('verbosity', t.enum(VERBOSITY), { default: 'standard' }),
  field('interrupt_tendency', opt(t.enum(INTERRUPT_TENDENCY)), none),
]);
const SPEECH_COMPLEXITY = t.literal(
  'control',
  'regular',
  'control_audio',
  'control_accents',
  'control_behavior',
  'control_audio_accents',
  'control_audio_behavior',
  'control_accents_behavior',
);
/** AudioNativeConfig: every field has a default (τ²'s config constants; only their presence matters here). */
const AudioNativeConfig = defineModel('AudioNativeConfig', [
  field('provider', t.literal('openai', 'gemini', 'xai', 'nova', 'qwen', 'livekit'), { default: 'openai' }),
  field('cascaded_config_name', opt(t.str), none),
  field('model', t.str, { default: '' }),
  field('reasoning_effort', opt(t.str), none),
  ...['tick_duration_seconds'].map((f) => field(f, t.float, { default: 0 })),
  ...['max_steps_seconds', 'pcm_sample_rate', 'telephony_rate'].map((f) => field(f, t.int, { default: 0n })),
  ...[
    'wait_to_respond_threshold_other_seconds',
    'wait_to_respond_threshold_self_seconds',
    'yield_threshold_when_interrupted_seconds',
    'yield_threshold_when_interrupting_seconds',
    'interruption_check_interval_seconds',
    'integration_duration_seconds',
    'silence_annotation_threshold_seconds',
  ].map((f) => field(f, t.float, { default: 0 })),
  field('backchannel_min_threshold_seconds', opt(t.float), none),
  field('backchannel_max_threshold_seconds', opt(t.float), none),
  field('backchannel_poisson_rate', t.float, { default: 0 }),
  field('use_llm_backchannel', t.bool, { default: false }),
  field('use_xml_prompt', t.bool, { default: false }),
  field('send_audio_instant', t.bool, { default: false }),
]);

const AgentInfo = defineModel('AgentInfo', [
  field('implementation', t.str),
  field('llm', opt(t.str), none),
  field('llm_args', opt(dict), none),
  field('voice_settings', voicePart, none),
]);
const UserInfo = defineModel('UserInfo', [
  field('implementation', t.str),
  field('llm', opt(t.str), none),
  field('llm_args', opt(dict), none),
  field('global_simulation_guidelines', opt(t.str), none),
  field('voice_settings', voicePart, none),
  field('persona_config', opt(m(() => PersonaConfig)), none),
]);
const EnvironmentInfo = defineModel('EnvironmentInfo', [
  field('domain_name', t.str),
  field('policy', t.str),
  field(
    'tool_defs',
    opt(
      t.dict(
        t.str,
        m(() => ToolSignature),
      ),
    ),
    none,
  ),
]);
export const InfoModel = defineModel('Info', [
  field('git_commit', t.str),
  field('num_trials', t.int),
  field('max_steps', t.int),
  field('max_errors', t.int),
  field(
    'user_info',
    m(() => UserInfo),
  ),
  field(
    'agent_info',
    m(() => AgentInfo),
  ),
  field(
    'environment_info',
    m(() => EnvironmentInfo),
  ),
  field('seed', opt(t.int), none),
  field('text_streaming_config', opt(dict), none),
  field('speech_complexity', opt(SPEECH_COMPLEXITY), none),
  field('audio_native_config', opt(m(() => AudioNativeConfig)), none),
  field('retrieval_config', opt(t.str), none),
  field('retrieval_config_kwargs', opt(dict), none),
]);

export const SimulationIndexEntryModel = defineModel('SimulationIndexEntry', [
  field('id', t.str),
  field('task_id', t.union(t.int, t.str)),
  field('trial', t.int),
  field('reward', opt(t.float), none),
  field('termination_reason', opt(t.str), none),
  field('agent_cost', opt(t.float), none),
  field('duration', opt(t.float), none),
]);
