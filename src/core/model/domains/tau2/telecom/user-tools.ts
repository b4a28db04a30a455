/** τ²'s TelecomUserTools (domains/telecom/user_tools.py): the user's simulated phone. */
import { PyException } from '../../../../py/errors';
import { pyLower } from '../../../../py/lower';
import { roundFloat2 } from '../../../../py/ops';
import { EnumMember, modelDump, PydModel, tRepr, validate, type TDict, type TValue } from '../../../../py/pydantic';
import { attr, same, setAttr, text } from '../py-attrs';
import type { MethodDef, Toolkit, ToolDef, ToolType } from '../toolkit';
import {
  APNNames,
  APNSettings,
  NetworkModePreference,
  NetworkStatus,
  NetworkTechnology,
  PerformanceLevel,
  SignalStrength,
  SimStatus,
  VpnDetails,
} from './user-models';

const dev = (self: Toolkit): PydModel => self.db.get('device') as PydModel;
const sur = (self: Toolkit): PydModel => self.db.get('surroundings') as PydModel;
const on = (v: TValue): boolean =>
  v === true ||
  (typeof v === 'string' && v !== '') ||
  (typeof v === 'bigint' && v !== 0n) ||
  (typeof v === 'number' && v !== 0) ||
  v instanceof PydModel ||
  v instanceof EnumMember;
const set = (self: Toolkit, k: string, v: TValue): void => setAttr(dev(self), k, v);
const get = (self: Toolkit, k: string): TValue => attr(dev(self), k);
const ONOFF = (b: boolean): string => (b ? 'ON' : 'OFF');
const value = (v: TValue): string => (v instanceof EnumMember ? v.value : text(v));

function statusBar(self: Toolkit): string {
  const d = dev(self);
  const out: string[] = [];
  if (on(attr(d, 'airplane_mode'))) out.push('✈️ Airplane Mode');
  else {
    const SIGNAL: Record<string, string> = { none: '📵 No Signal', poor: '📶¹ Poor', fair: '📶² Fair', good: '📶³ Good', excellent: '📶⁴ Excellent' };
    out.push(SIGNAL[value(attr(d, 'network_signal_strength'))] ?? '📵 No Signal');
    const tech = attr(d, 'network_technology_connected');
    if (!same(tech, 'none')) out.push(value(tech));
    if (on(attr(d, 'data_enabled')) && !same(tech, 'none')) {
      out.push('📱 Data Enabled');
      if (on(attr(d, 'data_saver_mode'))) out.push('🔽 Data Saver');
    } else out.push('📵 Data Disabled');
  }
  if (on(attr(d, 'wifi_enabled')) && on(attr(d, 'wifi_connected')))
    out.push(on(attr(d, 'wifi_ssid')) ? `📡 Connected to ${text(attr(d, 'wifi_ssid'))}` : '📡 Enabled');
  if (on(attr(d, 'vpn_connected'))) out.push('🔒 VPN Connected');
  out.push(`🔋 ${text(attr(d, 'battery_level'))}%`);
  return out.join(' | ');
}
const withBar = (self: Toolkit, s: string): string => `${s}\nStatus Bar: ${statusBar(self)}`;

const simStatus = (self: Toolkit): TValue => (on(get(self, 'sim_card_missing')) ? SimStatus.get('MISSING') : get(self, 'sim_card_status'));

function noService(self: Toolkit): void {
  set(self, 'network_connection_status', NetworkStatus.get('NO_SERVICE'));
  set(self, 'network_technology_connected', NetworkTechnology.get('NONE'));
  set(self, 'network_signal_strength', SignalStrength.get('NONE'));
}

// Python parity: TelecomUserTools.simulate_network_search.
function simulateNetworkSearch(self: Toolkit): void {
  const sim = simStatus(self);
  const signals = attr(sur(self), 'signal_strength') as TDict;
  const signal = (tech: string): TValue => signals.get(tech) ?? SignalStrength.get('NONE');
  if (same(sim, 'active')) {
    set(self, 'network_connection_status', NetworkStatus.get('CONNECTED'));
    const pref = value(get(self, 'network_mode_preference'));
    const connect = (tech: string, s: TValue): void => {
      set(self, 'network_technology_connected', NetworkTechnology.of(tech)!);
      set(self, 'network_signal_strength', s);
    };
    if (pref === '4g_5g_preferred') {
      const five = signal('5G');
      if (same(five, 'none')) connect('4G', signal('4G'));
      else connect('5G', five);
    } else if (pref === '3g_only') connect('3G', signal('3G'));
    else if (pref === '2g_only') connect('2G', signal('2G'));
    else connect('4G', signal('4G'));
  } else noService(self);
  if (on(get(self, 'airplane_mode'))) noService(self);
  if (same(attr(get(self, 'active_apn_settings'), 'apn_name'), 'broken')) noService(self);
  if (!on(attr(sur(self), 'line_active'))) noService(self);
}

function mobileDataWorking(self: Toolkit): boolean {
  if (on(get(self, 'airplane_mode')) || same(get(self, 'network_signal_strength'), 'none')) return false;
  if (same(get(self, 'network_connection_status'), 'no_service')) return false;
  if (on(attr(sur(self), 'is_abroad')) && (!on(get(self, 'roaming_enabled')) || !on(attr(sur(self), 'roaming_allowed')))) return false;
  if (!on(get(self, 'data_enabled'))) return false;
  if (on(attr(sur(self), 'mobile_data_usage_exceeded'))) return false;
  return true;
}

// Python parity: _run_speed_test (speed rounded to 2 places, then described).
function speedTest(self: Toolkit): [number | null, string] {
  if (!mobileDataWorking(self)) return [null, 'No Connection'];
  const vpn = get(self, 'vpn_details');
  let factor = on(get(self, 'vpn_connected')) && vpn instanceof PydModel && same(attr(vpn, 'server_performance'), 'poor') ? 0.1 : 1.0;
  if (on(get(self, 'data_saver_mode'))) factor *= 0.2;
  const RANGE: Record<string, [number, number]> = { '2G': [0.1, 0.4], '3G': [1.0, 5.0], '4G': [10.0, 100.0], '5G': [50.0, 500.0], none: [0.0, 0.0] };
  const [lo, hi] = RANGE[value(get(self, 'network_technology_connected'))] ?? [0.0, 0.0];
  const SIGNAL: Record<string, number> = { poor: 0.2, fair: 0.5, good: 0.8, excellent: 1.0, none: 0.0 };
  const speed = roundFloat2(((lo + hi) / 2.0) * (SIGNAL[value(get(self, 'network_signal_strength'))] ?? 0.0) * factor);
  const desc = speed < 1 ? 'Very Poor' : speed < 5 ? 'Poor' : speed < 25 ? 'Fair' : speed < 100 ? 'Good' : 'Excellent';
  return [speed, desc];
}

function canSendMms(self: Toolkit): boolean {
  if (!mobileDataWorking(self)) return false;
  if (same(get(self, 'network_technology_connected'), '2G')) return false;
  if (on(get(self, 'wifi_calling_enabled')) && on(get(self, 'wifi_calling_mms_over_wifi'))) return false;
  if (attr(get(self, 'active_apn_settings'), 'mmsc_url') === null) return false;
  const msg = (get(self, 'app_statuses') as TDict).get('messaging');
  if (msg === undefined || msg === null) return false;
  const p = attr(msg, 'permissions');
  return on(attr(p, 'storage')) && on(attr(p, 'sms'));
}

function toggle(self: Toolkit, key: string, search: boolean): boolean {
  const next = !on(get(self, key));
  set(self, key, next);
  if (search) simulateNetworkSearch(self);
  return next;
}

function toggleAirplane(self: Toolkit): boolean {
  const wasOn = on(get(self, 'airplane_mode'));
  set(self, 'airplane_mode', !wasOn);
  const wifiOff = (): void => {
    set(self, 'wifi_connected', false);
    set(self, 'wifi_ssid', null);
    set(self, 'wifi_signal_strength', SignalStrength.get('NONE'));
  };
  if (wasOn) {
    set(self, 'network_connection_status', NetworkStatus.get('SEARCHING'));
    if (on(get(self, 'wifi_enabled'))) wifiOff();
  } else {
    wifiOff();
    if (on(get(self, 'vpn_connected'))) disconnectVpn(self);
  }
  simulateNetworkSearch(self);
  return on(get(self, 'airplane_mode'));
}

function disconnectVpn(self: Toolkit): boolean {
  if (!on(get(self, 'vpn_connected'))) return false;
  set(self, 'vpn_connected', false);
  set(self, 'vpn_details', null);
  return true;
}

/** TelecomUserTools.default_vpn_details: one object shared by every toolkit of the run (a Python class attribute). */
function defaultVpn(self: Toolkit): PydModel {
  let v = self.shared.get('default_vpn_details');
  if (!(v instanceof PydModel))
    self.shared.set(
      'default_vpn_details',
      (v = validate(
        VpnDetails,
        new Map<string, TValue>([
          ['server_address', '192.168.1.1'],
          ['protocol', 'OpenVPN'],
          ['server_performance', PerformanceLevel.get('EXCELLENT')],
        ]),
      )),
    );
  return v;
}

function connectVpn(self: Toolkit): boolean | null {
  if (on(get(self, 'vpn_connected'))) return null;
  set(self, 'vpn_connected', true);
  set(self, 'vpn_details', defaultVpn(self));
  return true;
}

const assertion = (ok: boolean): void => {
  if (!ok) throw new PyException('AssertionError', '');
};

const apps = (self: Toolkit): TDict => get(self, 'app_statuses') as TDict;
const appGet = (self: Toolkit, name: TValue): TValue | undefined => (typeof name === 'string' ? apps(self).get(name) : undefined);
const permNames = (perms: TValue): string[] => [...(modelDump(perms) as TDict)].filter(([, v]) => on(v)).map(([k]) => pyLower(k.replaceAll('_', ' ')));

const params = (...names: (string | [string, TValue])[]) => names.map((n) => (typeof n === 'string' ? { name: n } : { name: n[0], default: n[1] }));
const tool = (name: string, toolType: ToolType, names: (string | [string, TValue])[], run: MethodDef['run']): ToolDef => ({
  name,
  toolType,
  mutates: toolType === 'write',
  params: params(...names),
  run,
});
const fn = (name: string, names: (string | [string, TValue])[], run: MethodDef['run']): MethodDef => ({ name, params: params(...names), run });
const g = (a: ReadonlyMap<string, TValue>, k: string): TValue => a.get(k)!;

export const USER_TOOLS: ToolDef[] = [
  tool('check_status_bar', 'read', [], (self) => `Status Bar: ${statusBar(self)}`),
  tool('check_network_status', 'read', [], (self) => {
    const lines = [
      `Airplane Mode: ${ONOFF(on(get(self, 'airplane_mode')))}`,
      `SIM Card Status: ${value(simStatus(self))}`,
      `Cellular Connection: ${value(get(self, 'network_connection_status'))}`,
      `Cellular Signal: ${value(get(self, 'network_signal_strength'))}`,
      `Cellular Network Type: ${value(get(self, 'network_technology_connected'))}`,
      `Mobile Data Enabled: ${on(get(self, 'data_enabled')) ? 'Yes' : 'No'}`,
      `Data Roaming Enabled: ${on(get(self, 'roaming_enabled')) ? 'Yes' : 'No'}`,
      `Wi-Fi Radio: ${ONOFF(on(get(self, 'wifi_enabled')))}`,
      `Wi-Fi Connected: ${on(get(self, 'wifi_connected')) ? 'Yes' : 'No'}`,
    ];
    if (on(get(self, 'wifi_connected'))) lines.push(`Connected Wi-Fi Network: ${text(get(self, 'wifi_ssid'))}`);
    return lines.join('\n');
  }),
  tool('check_network_mode_preference', 'read', [], (self) => `Network Mode Preference: ${value(get(self, 'network_mode_preference'))}`),
  tool('set_network_mode_preference', 'write', ['mode'], (self, a) => {
    const mode = g(a, 'mode');
    // Python parity: NetworkModePreference(mode) for a str; a ValueError is a refusal.
    const m = mode instanceof EnumMember ? mode : typeof mode === 'string' ? NetworkModePreference.of(mode) : undefined;
    if (m === undefined) {
      if (typeof mode !== 'string') {
        // Python parity: a non-str is assigned as it is, then `.value` fails on it.
        set(self, 'network_mode_preference', mode);
        simulateNetworkSearch(self);
        throw new PyException(
          'AttributeError',
          `'${mode === null ? 'NoneType' : typeof mode === 'bigint' ? 'int' : typeof mode === 'number' ? 'float' : typeof mode === 'boolean' ? 'bool' : Array.isArray(mode) ? 'list' : 'dict'}' object has no attribute 'value'`,
        );
      }
      return withBar(
        self,
        `Failed to set network mode: '${mode}' is not a valid option. Please use one of: ${NetworkModePreference.members.map((x) => x.value).join(', ')}`,
      );
    }
    set(self, 'network_mode_preference', m);
    simulateNetworkSearch(self);
    return withBar(self, `Preferred Network Mode set to: ${m.value}`);
  }),
  tool('run_speed_test', 'read', [], (self) => {
    const [speed, desc] = speedTest(self);
    if (speed === null) return `Speed test failed: ${desc || 'Could not determine speed'}.`;
    const ADVICE: Record<string, string> = {
      'Very Poor': 'Connection is very slow. Basic web browsing might be difficult.',
      Poor: 'Connection is slow. Web browsing may be sluggish, streaming difficult.',
      Fair: 'Connection is okay for web browsing and some standard definition streaming.',
      Good: 'Connection is good for most activities, including HD streaming.',
      Excellent: 'Connection is very fast.',
    };
    return `Speed Test Result: ${roundFloat2(speed).toFixed(2)} Mbps (${desc}). ${ADVICE[desc] ?? ''}`;
  }),
  tool('toggle_airplane_mode', 'write', [], (self) => withBar(self, `Airplane Mode is now ${ONOFF(toggleAirplane(self))}.`)),
  tool('check_sim_status', 'read', [], (self) => {
    const MAP: Record<string, string> = {
      active: 'Your SIM card is active and working.',
      missing: 'No SIM card detected in the phone.',
      locked_pin: 'The SIM card is locked with a PIN code.',
      locked_puk: 'The SIM card is locked with a PUK code.',
    };
    const s = simStatus(self);
    return MAP[value(s)] ?? `Unknown SIM status: ${value(s)}`;
  }),
  tool('reseat_sim_card', 'write', [], (self) => {
    set(self, 'sim_card_missing', false);
    simulateNetworkSearch(self);
    return withBar(self, 'SIM card re-seated successfully.');
  }),
  tool('toggle_data', 'write', [], (self) => withBar(self, `Mobile Data is now ${ONOFF(toggle(self, 'data_enabled', true))}.`)),
  tool('toggle_roaming', 'write', [], (self) => withBar(self, `Data Roaming is now ${ONOFF(toggle(self, 'roaming_enabled', true))}.`)),
  tool('check_data_restriction_status', 'read', [], (self) =>
    on(get(self, 'data_saver_mode')) ? 'Data Saver mode is ON (limits data usage).' : 'Data Saver mode is OFF.',
  ),
  tool('toggle_data_saver_mode', 'write', [], (self) => withBar(self, `Data Saver Mode is now ${ONOFF(toggle(self, 'data_saver_mode', false))}.`)),
  tool('check_apn_settings', 'read', [], (self) => {
    const s = get(self, 'active_apn_settings');
    const name = attr(s, 'apn_name');
    const url = attr(s, 'mmsc_url');
    return `Current APN Name: ${value(name) || 'Not Set'}\nMMSC URL (for picture messages): ${on(url) ? text(url) : 'Not Set'}\n(These are technical settings, usually best left unchanged.)`;
  }),
  tool('set_apn_settings', 'write', ['apn_settings'], (self, a) => {
    let s = g(a, 'apn_settings');
    if (s instanceof Map) s = validate(APNSettings, s);
    set(self, 'active_apn_settings', s);
    const msg = `APN settings set to: ${value(attr(s, 'apn_name'))}`;
    simulateNetworkSearch(self);
    return withBar(self, msg);
  }),
  tool('reset_apn_settings', 'write', [], (self) => {
    setAttr(get(self, 'active_apn_settings'), 'reset_at_reboot', true);
    simulateNetworkSearch(self);
    return withBar(self, 'APN settings will reset at reboot.');
  }),
  tool('check_wifi_status', 'read', [], (self) => {
    if (!on(get(self, 'wifi_enabled'))) return 'Wi-Fi is turned OFF.';
    if (on(get(self, 'wifi_connected')))
      return `Wi-Fi is ON and connected to '${text(get(self, 'wifi_ssid'))}'. Signal strength: ${value(get(self, 'wifi_signal_strength'))}.`;
    return 'Wi-Fi is ON but not connected to any network.';
  }),
  tool('toggle_wifi', 'write', [], (self) => {
    if (on(get(self, 'airplane_mode'))) return withBar(self, 'Cannot change Wi-Fi settings while Airplane Mode is ON.');
    const next = !on(get(self, 'wifi_enabled'));
    set(self, 'wifi_enabled', next);
    if (!next) {
      set(self, 'wifi_connected', false);
      set(self, 'wifi_ssid', null);
      set(self, 'wifi_signal_strength', SignalStrength.get('NONE'));
    }
    return withBar(self, `Wi-Fi is now ${ONOFF(next)}.`);
  }),
  tool('check_wifi_calling_status', 'read', [], (self) => `Wi-Fi Calling is currently turned ${ONOFF(on(get(self, 'wifi_calling_enabled')))}.`),
  tool('toggle_wifi_calling', 'write', [], (self) => withBar(self, `Wi-Fi Calling is now ${ONOFF(toggle(self, 'wifi_calling_enabled', false))}.`)),
  tool('check_vpn_status', 'read', [], (self) => {
    const details = get(self, 'vpn_details');
    if (on(get(self, 'vpn_connected'))) {
      const d = on(details) ? modelDump(details) : null;
      return d !== null ? `VPN is ON and connected. Details: ${tRepr(d)}` : 'VPN is ON and connected (no specific details available).';
    }
    return on(get(self, 'vpn_enabled_setting')) ? 'VPN is turned ON in settings, but currently not connected.' : 'VPN is turned OFF.';
  }),
  tool('connect_vpn', 'write', [], (self) => {
    const c = connectVpn(self);
    return c === null ? 'VPN already connected.' : withBar(self, 'VPN connected successfully.');
  }),
  tool('disconnect_vpn', 'write', [], (self) =>
    withBar(self, disconnectVpn(self) ? 'VPN disconnected successfully.' : 'No active VPN connection to disconnect.'),
  ),
  tool('check_installed_apps', 'read', [], (self) => `The following apps are installed on the phone: ${[...apps(self).keys()].join(', ')}`),
  tool('check_app_status', 'read', ['app_name'], (self, a) => {
    const name = g(a, 'app_name');
    const app = appGet(self, name);
    if (!on(app ?? null)) return `App '${text(name)}' not found on this phone.`;
    const perms = permNames(attr(app!, 'permissions'));
    const lines = [`Status for App: ${text(name)}`];
    if (perms.length === 0) lines.push(' - Permissions: None granted.');
    else lines.push(' - Permissions Granted:', ...perms.map((p) => `   - ${p}`));
    return lines.join('\n');
  }),
  tool('check_app_permissions', 'read', ['app_name'], (self, a) => {
    const name = g(a, 'app_name');
    const app = appGet(self, name);
    if (!on(app ?? null)) return `App '${text(name)}' not found on this phone.`;
    const perms = permNames(attr(app!, 'permissions'));
    return perms.length === 0 ? `App '${text(name)}' currently has no permissions granted.` : `App '${text(name)}' has permission for: ${perms.join(', ')}.`;
  }),
  tool('grant_app_permission', 'write', ['app_name', 'permission'], (self, a) => {
    const name = g(a, 'app_name');
    const app = appGet(self, name);
    const permission = lowerArg(g(a, 'permission'));
    let ok: boolean;
    let msg: string;
    if (on(app ?? null)) {
      const available = [...(modelDump(attr(app!, 'permissions')) as TDict).keys()];
      if (!available.includes(permission))
        [ok, msg] = [false, `Permission '${permission}' not tracked for app '${text(name)}', available permissions: ${tRepr(available)}`];
      else {
        setAttr(attr(app!, 'permissions'), permission, true);
        [ok, msg] = [true, `Permission '${permission}' granted to app '${text(name)}'.`];
      }
    } else [ok, msg] = [false, `App '${text(name)}' not found. Cannot grant permission.`];
    return withBar(self, `${ok ? 'Success. ' : 'Error. '}${msg}`);
  }),
  tool('can_send_mms', 'read', [], (self) => (canSendMms(self) ? 'Your messaging app can send MMS messages.' : 'Your messaging app cannot send MMS messages.')),
  tool('reboot_device', 'write', [], (self) => {
    const lines: string[] = [];
    if (on(attr(get(self, 'active_apn_settings'), 'reset_at_reboot'))) {
      lines.push('Resetting APN settings...');
      set(self, 'active_apn_settings', validate(APNSettings, new Map()));
    }
    lines.push('Restarting network services...');
    set(self, 'network_connection_status', NetworkStatus.get('SEARCHING'));
    simulateNetworkSearch(self);
    return withBar(self, lines.join('\n'));
  }),
  tool('check_payment_request', 'read', [], (self) => {
    const r = attr(sur(self), 'payment_request');
    return r === null
      ? 'No payment request has been made.'
      : `You have a payment request for bill ${text(attr(r, 'bill_id'))} of ${text(attr(r, 'amount_due'))} USD.`;
  }),
  tool('make_payment', 'write', [], (self) => {
    const r = attr(sur(self), 'payment_request');
    if (r === null) return 'You do not have a payment request.';
    setAttr(r, 'paid', true);
    return `Payment of ${text(attr(r, 'amount_due'))} USD has been made for bill ${text(attr(r, 'bill_id'))}.`;
  }),
];

const lowerArg = (v: TValue): string => {
  if (typeof v !== 'string')
    throw new PyException(
      'AttributeError',
      `'${v === null ? 'NoneType' : typeof v === 'bigint' ? 'int' : typeof v === 'number' ? 'float' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'list' : 'dict'}' object has no attribute 'lower'`,
    );
  return pyLower(v);
};

const turn = (self: Toolkit, key: string, want: boolean, search: boolean): void => {
  if (toggle(self, key, search) !== want) toggle(self, key, search);
};

export const USER_FUNCTIONS: MethodDef[] = [
  fn('set_user_info', ['name', 'phone_number'], (self, a) => {
    setAttr(sur(self), 'name', g(a, 'name'));
    setAttr(sur(self), 'phone_number', g(a, 'phone_number'));
    return null;
  }),
  fn('set_user_location', ['abroad'], (self, a) => (setAttr(sur(self), 'is_abroad', g(a, 'abroad')), null)),
  fn('turn_airplane_mode_on', [], (self) => {
    if (!toggleAirplane(self)) toggleAirplane(self);
    return 'Airplane Mode is now ON.';
  }),
  fn('turn_airplane_mode_off', [], (self) => {
    if (toggleAirplane(self)) toggleAirplane(self);
    return 'Airplane Mode is now OFF.';
  }),
  fn('unseat_sim_card', [], (self) => {
    set(self, 'sim_card_missing', true);
    simulateNetworkSearch(self);
    assertion(on(get(self, 'sim_card_missing')) && same(simStatus(self), 'missing'));
    return 'SIM card un-seated successfully.';
  }),
  fn('lock_sim_card', ['mode'], (self, a) => {
    const mode = g(a, 'mode');
    if (same(mode, 'pin')) set(self, 'sim_card_status', SimStatus.get('LOCKED_PIN'));
    else if (same(mode, 'puk')) set(self, 'sim_card_status', SimStatus.get('LOCKED_PUK'));
    simulateNetworkSearch(self);
    return `SIM card locked successfully in ${text(mode)} mode.`;
  }),
  fn('turn_data_on', [], (self) => (set(self, 'data_enabled', true), 'Data connection restored.')),
  fn('turn_data_off', [], (self) => (turn(self, 'data_enabled', false, true), 'Data connection broken.')),
  fn('turn_roaming_on', [], (self) => (turn(self, 'roaming_enabled', true, true), 'Data Roaming is now ON.')),
  fn('turn_roaming_off', [], (self) => (turn(self, 'roaming_enabled', false, true), 'Data Roaming is now OFF.')),
  fn('turn_data_saver_mode_on', [], (self) => (turn(self, 'data_saver_mode', true, false), 'Data Saver Mode is now ON.')),
  fn('turn_data_saver_mode_off', [], (self) => (turn(self, 'data_saver_mode', false, false), 'Data Saver Mode is now OFF.')),
  fn('break_apn_settings', [], (self) => {
    setAttr(get(self, 'active_apn_settings'), 'apn_name', APNNames.get('BROKEN'));
    simulateNetworkSearch(self);
    assertion(same(get(self, 'network_connection_status'), 'no_service'));
    return 'APN settings broken. Please call reset_apn_settings() to fix.';
  }),
  fn('break_apn_mms_setting', [], (self) => {
    setAttr(get(self, 'active_apn_settings'), 'mmsc_url', null);
    assertion(!canSendMms(self));
    return 'APN MMS setting broken. Please call reset_apn_settings() to fix.';
  }),
  fn('set_wifi_calling', ['enabled', ['mms_over_wifi', null]], (self, a) => {
    const enabled = g(a, 'enabled');
    if (!same(get(self, 'wifi_calling_enabled'), enabled)) toggle(self, 'wifi_calling_enabled', false);
    let msg = `Wi-Fi Calling is now ${ONOFF(on(enabled))}.`;
    const mms = g(a, 'mms_over_wifi');
    if (mms !== null) {
      set(self, 'wifi_calling_mms_over_wifi', mms);
      msg += `\nMMS over Wi-Fi is now ${ONOFF(on(mms))}.`;
    }
    return msg;
  }),
  fn('break_vpn', [], (self) => {
    connectVpn(self);
    setAttr(get(self, 'vpn_details'), 'server_performance', PerformanceLevel.get('POOR'));
    return 'VPN connection broken.';
  }),
  fn('remove_app_permission', ['app_name', 'permission'], (self, a) => {
    const name = g(a, 'app_name');
    const app = appGet(self, name);
    const permission = lowerArg(g(a, 'permission'));
    if (!on(app ?? null)) return [false, `App '${text(name)}' not found. Cannot remove permission.`];
    const perms = attr(app!, 'permissions') as PydModel;
    if (!perms.fields.has(permission)) return [false, `Permission '${permission}' not tracked for app '${text(name)}'.`];
    setAttr(perms, permission, false);
    return [true, `Permission '${permission}' removed from app '${text(name)}'.`];
  }),
  fn('simulate_network_search', [], (self) => (simulateNetworkSearch(self), null)),
  fn('assert_airplane_mode_status', ['expected_status'], (self, a) => same(get(self, 'airplane_mode'), g(a, 'expected_status'))),
  fn('assert_service_status', ['expected_status'], (self, a) => {
    const m = typeof g(a, 'expected_status') === 'string' ? NetworkStatus.of(g(a, 'expected_status') as string) : undefined;
    if (m === undefined) throw new PyException('ValueError', `${tRepr(g(a, 'expected_status'))} is not a valid NetworkStatus`);
    return same(get(self, 'network_connection_status'), m);
  }),
  fn('assert_mobile_data_status', ['expected_status'], (self, a) => same(mobileDataWorking(self), g(a, 'expected_status'))),
  fn('assert_mobile_roaming_status', ['expected_status'], (self, a) => same(get(self, 'roaming_enabled'), g(a, 'expected_status'))),
  fn('assert_mobile_data_saver_mode_status', ['expected_status'], (self, a) => same(get(self, 'data_saver_mode'), g(a, 'expected_status'))),
  fn('assert_internet_speed', ['expected_speed', ['expected_desc', null]], (self, a) => {
    const [speed, desc] = speedTest(self);
    const s = speed || 0.0;
    const want = g(a, 'expected_speed') as number | bigint;
    const fast = s >= Number(want);
    const d = g(a, 'expected_desc');
    return d === null ? fast : fast && pyLower(desc) === lowerArg(d);
  }),
  fn('assert_internet_not_excellent', [], (self) => pyLower(speedTest(self)[1]) !== 'excellent'),
  fn('assert_can_send_mms', ['expected_status'], (self, a) => same(canSendMms(self), g(a, 'expected_status'))),
  fn('assert_mobile_data_usage_exceeded', ['expected_status'], (self, a) => same(attr(sur(self), 'mobile_data_usage_exceeded'), g(a, 'expected_status'))),
];
