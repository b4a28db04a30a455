/**
 * τ²'s results-file models, the first part (models.ts holds the rest and says what they are for): the field helpers
 * every part uses, the enums, and data_model/message.py's messages (with their audio effects) and ticks.
 */
// Python parity: pydantic 2 models of τ² v1.0.1 (data_model/message.py), field order and defaults as declared.
import { defineModel, EnumClass, field, t, type FieldType, type ModelClass } from '../../../py/pydantic';

export const opt = t.optional;
export const none = { default: null };
export const m = (f: () => ModelClass): FieldType => t.model(f);
/** A voice-only part, not checked (see the file's comment). */
export const voicePart = t.any;
export const dict = t.dict(t.any, t.any);
export const REQUESTOR = t.literal('user', 'assistant');

export const REWARD_TYPE = new EnumClass('RewardType', [
  ['DB', 'DB'],
  ['ENV_ASSERTION', 'ENV_ASSERTION'],
  ['NL_ASSERTION', 'NL_ASSERTION'],
  ['ACTION', 'ACTION'],
  ['COMMUNICATE', 'COMMUNICATE'],
]);
export const TOOL_TYPE = new EnumClass('ToolType', [
  ['READ', 'read'],
  ['WRITE', 'write'],
  ['THINK', 'think'],
  ['GENERIC', 'generic'],
]);
export const TASK_ISSUE_STATUS = new EnumClass('TaskIssueStatus', [
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
export const EffectTimeline = defineModel('EffectTimeline', [field('events', t.list(m(() => EffectEvent)), { factory: () => [] })]);

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
export const Message = t.union(...MESSAGE_MEMBERS.map((c) => m(() => c)));

export const Tick = defineModel('Tick', [
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
