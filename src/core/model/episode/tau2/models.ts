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
import { defineModel, EnumClass, field, t } from '../../../py/pydantic';
import { opt, none, m, voicePart, dict, REWARD_TYPE, TOOL_TYPE, TERMINATION_REASON, EffectTimeline, Message, Tick } from './models-messages';
import { ActionModel, EnvAssertionModel } from './models-tasks';

export { MESSAGE_MEMBERS, REWARD_TYPE, TERMINATION_REASON, ToolCallModel } from './models-messages';
export { ActionModel, EnvAssertionModel, TaskModel } from './models-tasks';

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
