/** The user's simulated phone in τ²'s TelecomUserTools (domains/telecom/user_tools.py): device state, its derived status and the helpers the tools share. */
import { PyException } from '../../../../py/errors';
import { pyLower } from '../../../../py/lower';
import { roundFloat2 } from '../../../../py/ops';
import { EnumMember, modelDump, PydModel, validate, type TDict, type TValue } from '../../../../py/pydantic';
import { attr, same, setAttr, text } from '../py-attrs';
import { key, type MethodDef, type Toolkit, type ToolDef, type ToolType } from '../toolkit';
import { NetworkStatus, NetworkTechnology, PerformanceLevel, SignalStrength, SimStatus, VpnDetails } from './user-models';

export const dev = (self: Toolkit): PydModel => self.db.get('device') as PydModel;
export const sur = (self: Toolkit): PydModel => self.db.get('surroundings') as PydModel;
export const on = (v: TValue): boolean =>
  v === true ||
  (typeof v === 'string' && v !== '') ||
  (typeof v === 'bigint' && v !== 0n) ||
  (typeof v === 'number' && v !== 0) ||
  v instanceof PydModel ||
  v instanceof EnumMember;
export const set = (self: Toolkit, k: string, v: TValue): void => setAttr(dev(self), k, v);
export const get = (self: Toolkit, k: string): TValue => attr(dev(self), k);
export const ONOFF = (b: boolean): string => (b ? 'ON' : 'OFF');
export const value = (v: TValue): string => (v instanceof EnumMember ? v.value : text(v));

export function statusBar(self: Toolkit): string {
  const d = dev(self);
  const out: string[] = [];
  if (on(attr(d, 'airplane_mode'))) out.push('✈️ Airplane Mode');
  else {
    const SIGNAL: Record<string, string> = { none: '📵 No Signal', poor: '📶¹ Poor', fair: '📶² Fair', good: '📶³ Good', excellent: '📶⁴ Excellent' };
    out.push(entry(SIGNAL, value(attr(d, 'network_signal_strength'))) ?? '📵 No Signal');
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
export const withBar = (self: Toolkit, s: string): string => `${s}\nStatus Bar: ${statusBar(self)}`;

export const simStatus = (self: Toolkit): TValue => (on(get(self, 'sim_card_missing')) ? SimStatus.get('MISSING') : get(self, 'sim_card_status'));

export function noService(self: Toolkit): void {
  set(self, 'network_connection_status', NetworkStatus.get('NO_SERVICE'));
  set(self, 'network_technology_connected', NetworkTechnology.get('NONE'));
  set(self, 'network_signal_strength', SignalStrength.get('NONE'));
}

// Python parity: TelecomUserTools.simulate_network_search.
export function simulateNetworkSearch(self: Toolkit): void {
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

export function mobileDataWorking(self: Toolkit): boolean {
  if (on(get(self, 'airplane_mode')) || same(get(self, 'network_signal_strength'), 'none')) return false;
  if (same(get(self, 'network_connection_status'), 'no_service')) return false;
  if (on(attr(sur(self), 'is_abroad')) && (!on(get(self, 'roaming_enabled')) || !on(attr(sur(self), 'roaming_allowed')))) return false;
  if (!on(get(self, 'data_enabled'))) return false;
  if (on(attr(sur(self), 'mobile_data_usage_exceeded'))) return false;
  return true;
}

// Python parity: _run_speed_test (speed rounded to 2 places, then described).
export function speedTest(self: Toolkit): [number | null, string] {
  if (!mobileDataWorking(self)) return [null, 'No Connection'];
  const vpn = get(self, 'vpn_details');
  let factor = on(get(self, 'vpn_connected')) && vpn instanceof PydModel && same(attr(vpn, 'server_performance'), 'poor') ? 0.1 : 1.0;
  if (on(get(self, 'data_saver_mode'))) factor *= 0.2;
  const RANGE: Record<string, [number, number]> = { '2G': [0.1, 0.4], '3G': [1.0, 5.0], '4G': [10.0, 100.0], '5G': [50.0, 500.0], none: [0.0, 0.0] };
  const [lo, hi] = entry(RANGE, value(get(self, 'network_technology_connected'))) ?? [0.0, 0.0];
  const SIGNAL: Record<string, number> = { poor: 0.2, fair: 0.5, good: 0.8, excellent: 1.0, none: 0.0 };
  const speed = roundFloat2(((lo + hi) / 2.0) * (entry(SIGNAL, value(get(self, 'network_signal_strength'))) ?? 0.0) * factor);
  const desc = speed < 1 ? 'Very Poor' : speed < 5 ? 'Poor' : speed < 25 ? 'Fair' : speed < 100 ? 'Good' : 'Excellent';
  return [speed, desc];
}

export function canSendMms(self: Toolkit): boolean {
  if (!mobileDataWorking(self)) return false;
  if (same(get(self, 'network_technology_connected'), '2G')) return false;
  if (on(get(self, 'wifi_calling_enabled')) && on(get(self, 'wifi_calling_mms_over_wifi'))) return false;
  if (attr(get(self, 'active_apn_settings'), 'mmsc_url') === null) return false;
  const msg = (get(self, 'app_statuses') as TDict).get('messaging');
  if (msg === undefined || msg === null) return false;
  const p = attr(msg, 'permissions');
  return on(attr(p, 'storage')) && on(attr(p, 'sms'));
}

export function toggle(self: Toolkit, key: string, search: boolean): boolean {
  const next = !on(get(self, key));
  set(self, key, next);
  if (search) simulateNetworkSearch(self);
  return next;
}

export function toggleAirplane(self: Toolkit): boolean {
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

export function disconnectVpn(self: Toolkit): boolean {
  if (!on(get(self, 'vpn_connected'))) return false;
  set(self, 'vpn_connected', false);
  set(self, 'vpn_details', null);
  return true;
}

/** TelecomUserTools.default_vpn_details: one object shared by every toolkit of the run (a Python class attribute). */
export function defaultVpn(self: Toolkit): PydModel {
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

export function connectVpn(self: Toolkit): boolean | null {
  if (on(get(self, 'vpn_connected'))) return null;
  set(self, 'vpn_connected', true);
  set(self, 'vpn_details', defaultVpn(self));
  return true;
}

export const assertion = (ok: boolean): void => {
  if (!ok) throw new PyException('AssertionError', '');
};

export const apps = (self: Toolkit): TDict => get(self, 'app_statuses') as TDict;
export const appGet = (self: Toolkit, name: TValue): TValue | undefined => {
  const k = key(name); // Python parity: dict.get hashes its argument (a list or dict raises)
  return k === null ? undefined : apps(self).get(k);
};
export const permNames = (perms: TValue): string[] => [...(modelDump(perms) as TDict)].filter(([, v]) => on(v)).map(([k]) => pyLower(k.replaceAll('_', ' ')));

export const params = (...names: (string | [string, TValue])[]) => names.map((n) => (typeof n === 'string' ? { name: n } : { name: n[0], default: n[1] }));
export const tool = (name: string, toolType: ToolType, names: (string | [string, TValue])[], run: MethodDef['run']): ToolDef => ({
  name,
  toolType,
  mutates: toolType === 'write',
  params: params(...names),
  run,
});
export const fn = (name: string, names: (string | [string, TValue])[], run: MethodDef['run']): MethodDef => ({ name, params: params(...names), run });
export const g = (a: ReadonlyMap<string, TValue>, k: string): TValue => a.get(k)!;

export const lowerArg = (v: TValue): string => {
  if (typeof v !== 'string')
    throw new PyException(
      'AttributeError',
      `'${v === null ? 'NoneType' : typeof v === 'bigint' ? 'int' : typeof v === 'number' ? 'float' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'list' : 'dict'}' object has no attribute 'lower'`,
    );
  return pyLower(v);
};

/** `table[k]` for a key read from the DB or a call, never an inherited property (a value named `constructor`, `__proto__`). */
export const entry = <T>(table: Readonly<Record<string, T>>, k: string): T | undefined => (Object.hasOwn(table, k) ? table[k] : undefined);
