import { defineModel, EnumClass, field, t, type TValue } from '../../../../py/pydantic';
import { validate } from '../../../../py/pydantic';

// τ²'s telecom user-side models (domains/telecom/user_data_model.py): the phone and its surroundings.
const forbid = { extra: 'forbid' as const };

export const SimStatus = new EnumClass('SimStatus', [
  ['ACTIVE', 'active'],
  ['MISSING', 'missing'],
  ['LOCKED_PIN', 'locked_pin'],
  ['LOCKED_PUK', 'locked_puk'],
]);
export const NetworkTechnology = new EnumClass('NetworkTechnology', [
  ['NONE', 'none'],
  ['TWO_G', '2G'],
  ['THREE_G', '3G'],
  ['FOUR_G', '4G'],
  ['FIVE_G', '5G'],
]);
export const NetworkModePreference = new EnumClass('NetworkModePreference', [
  ['FOUR_G_5G_PREFERRED', '4g_5g_preferred'],
  ['FOUR_G_ONLY', '4g_only'],
  ['THREE_G_ONLY', '3g_only'],
  ['TWO_G_ONLY', '2g_only'],
]);
export const SignalStrength = new EnumClass('SignalStrength', [
  ['NONE', 'none'],
  ['POOR', 'poor'],
  ['FAIR', 'fair'],
  ['GOOD', 'good'],
  ['EXCELLENT', 'excellent'],
]);
export const PerformanceLevel = new EnumClass('PerformanceLevel', [
  ['UNKNOWN', 'unknown'],
  ['POOR', 'poor'],
  ['FAIR', 'fair'],
  ['GOOD', 'good'],
  ['EXCELLENT', 'excellent'],
]);
export const NetworkStatus = new EnumClass('NetworkStatus', [
  ['CONNECTED', 'connected'],
  ['SEARCHING', 'searching'],
  ['NO_SERVICE', 'no_service'],
  ['EMERGENCY_ONLY', 'emergency_only'],
]);
export const APNNames = new EnumClass('APNNames', [
  ['INTERNET', 'internet'],
  ['BROKEN', 'broken'],
]);

export const APNSettings = defineModel(
  'APNSettings',
  [
    field('apn_name', t.enum(APNNames), { default: APNNames.get('INTERNET') }),
    field('reset_at_reboot', t.bool, { default: false }),
    field('mms_apn', t.optional(t.str), { default: 'mms' }),
    field('mmsc_url', t.optional(t.str), { default: 'http://mms.carrier.com/mms/wapenc' }),
    field('mms_proxy', t.optional(t.str), { default: null }),
    field('mms_port', t.optional(t.int), { default: null }),
  ],
  forbid,
);
export const VpnDetails = defineModel(
  'VpnDetails',
  [
    field('server_address', t.optional(t.str), { default: null }),
    field('protocol', t.optional(t.str), { default: null }),
    field('server_performance', t.enum(PerformanceLevel), { default: PerformanceLevel.get('UNKNOWN') }),
  ],
  forbid,
);
const PERMS = ['sms', 'storage', 'phone', 'network'] as const;
export const AppPermissions = defineModel(
  'AppPermissions',
  PERMS.map((p) => field(p, t.bool, { default: false })),
  forbid,
);
const perms = (on: readonly string[]): TValue => validate(AppPermissions, new Map(on.map((p) => [p, true] as [string, TValue])));
export const AppStatus = defineModel(
  'AppStatus',
  [
    field('app_name', t.str),
    field(
      'permissions',
      t.model(() => AppPermissions),
      { factory: () => perms([]) },
    ),
  ],
  forbid,
);
const app = (name: string, on: readonly string[]): TValue =>
  validate(
    AppStatus,
    new Map<string, TValue>([
      ['app_name', name],
      ['permissions', perms(on)],
    ]),
  );

const sig = (name: string, d: string) => field(name, t.enum(SignalStrength), { default: SignalStrength.get(d) });
const bool = (name: string, d: boolean) => field(name, t.bool, { default: d });
export const MockPhoneAttributes = defineModel(
  'MockPhoneAttributes',
  [
    field('sim_card_status', t.enum(SimStatus), { default: SimStatus.get('ACTIVE') }),
    bool('sim_card_missing', false),
    bool('airplane_mode', false),
    sig('network_signal_strength', 'GOOD'),
    field('network_technology_connected', t.enum(NetworkTechnology), { default: NetworkTechnology.get('FIVE_G') }),
    field('network_connection_status', t.enum(NetworkStatus), { default: NetworkStatus.get('CONNECTED') }),
    field('battery_level', t.int, { default: 80n }),
    bool('data_enabled', true),
    bool('roaming_enabled', false),
    field('network_mode_preference', t.enum(NetworkModePreference), { default: NetworkModePreference.get('FOUR_G_5G_PREFERRED') }),
    field(
      'active_apn_settings',
      t.model(() => APNSettings),
      { factory: () => validate(APNSettings, new Map()) },
    ),
    bool('wifi_enabled', false),
    bool('wifi_connected', false),
    field('wifi_ssid', t.optional(t.str), { default: null }),
    sig('wifi_signal_strength', 'NONE'),
    bool('wifi_calling_enabled', false),
    bool('wifi_calling_mms_over_wifi', false),
    bool('data_saver_mode', false),
    bool('vpn_enabled_setting', false),
    bool('vpn_connected', false),
    field('vpn_details', t.optional(t.model(() => VpnDetails)), { default: null }),
    field(
      'app_statuses',
      t.dict(
        t.str,
        t.model(() => AppStatus),
      ),
      {
        factory: () =>
          new Map([
            ['messaging', app('messaging', ['sms', 'storage', 'phone'])],
            ['browser', app('browser', ['network', 'storage'])],
          ]),
      },
    ),
  ],
  forbid,
);
export const PaymentRequest = defineModel(
  'PaymentRequest',
  [field('bill_id', t.str), field('amount_due', t.float), field('paid', t.bool, { default: false })],
  forbid,
);
export const UserSurroundings = defineModel(
  'UserSurroundings',
  [
    field('name', t.optional(t.str), { default: null }),
    field('phone_number', t.optional(t.str), { default: null }),
    bool('is_abroad', false),
    bool('roaming_allowed', false),
    field('signal_strength', t.dict(t.enum(NetworkTechnology), t.enum(SignalStrength)), {
      factory: () =>
        new Map<string, TValue>([
          ['2G', SignalStrength.get('POOR')],
          ['3G', SignalStrength.get('FAIR')],
          ['4G', SignalStrength.get('GOOD')],
          ['5G', SignalStrength.get('EXCELLENT')],
        ]),
    }),
    bool('mobile_data_usage_exceeded', false),
    bool('line_active', true),
    field('payment_request', t.optional(t.model(() => PaymentRequest)), { default: null }),
  ],
  forbid,
);
export const TelecomUserDb = defineModel(
  'TelecomUserDB',
  [
    field(
      'device',
      t.model(() => MockPhoneAttributes),
      { factory: () => validate(MockPhoneAttributes, new Map()) },
    ),
    field(
      'surroundings',
      t.model(() => UserSurroundings),
      { factory: () => validate(UserSurroundings, new Map()) },
    ),
  ],
  forbid,
);
