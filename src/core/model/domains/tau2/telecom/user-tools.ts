/** τ²'s TelecomUserTools (domains/telecom/user_tools.py): the user's simulated phone. */
import { PyException } from '../../../../py/errors';
import { formatFloat2 } from '../../../../py/ops';
import { EnumMember, modelDump, PydModel, tRepr, tTypeName, validate, type TDict } from '../../../../py/pydantic';
import { attr, setAttr, text } from '../py-attrs';
import type { ToolDef } from '../toolkit';
import { APNSettings, NetworkModePreference, NetworkStatus, SignalStrength } from './user-models';

import {
  sur,
  on,
  set,
  get,
  ONOFF,
  value,
  statusBar,
  withBar,
  simStatus,
  simulateNetworkSearch,
  speedTest,
  canSendMms,
  toggle,
  toggleAirplane,
  disconnectVpn,
  connectVpn,
  apps,
  appGet,
  permNames,
  tool,
  g,
  lowerArg,
  entry,
} from './device';

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
  tool('check_network_mode_preference', 'read', [], (self) => {
    // Python parity: `.value` of whatever set_network_mode_preference stored (a non-str argument is stored as it is).
    const mode = get(self, 'network_mode_preference');
    if (!(mode instanceof EnumMember)) throw new PyException('AttributeError', `'${tTypeName(mode)}' object has no attribute 'value'`);
    return `Network Mode Preference: ${mode.value}`;
  }),
  tool('set_network_mode_preference', 'write', ['mode'], (self, a) => {
    const mode = g(a, 'mode');
    // Python parity: NetworkModePreference(mode) for a str; a ValueError is a refusal.
    const m = mode instanceof EnumMember ? mode : typeof mode === 'string' ? NetworkModePreference.of(mode) : undefined;
    if (m === undefined) {
      if (typeof mode !== 'string') {
        // Python parity: a non-str is assigned as it is, then `.value` fails on it; None is taken for the failure sign.
        set(self, 'network_mode_preference', mode);
        simulateNetworkSearch(self);
        if (mode !== null) throw new PyException('AttributeError', `'${tTypeName(mode)}' object has no attribute 'value'`);
      }
      return withBar(
        self,
        `Failed to set network mode: '${text(mode)}' is not a valid option. Please use one of: ${NetworkModePreference.members.map((x) => x.value).join(', ')}`,
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
    return `Speed Test Result: ${formatFloat2(speed)} Mbps (${desc}). ${entry(ADVICE, desc) ?? ''}`;
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
    return entry(MAP, value(s)) ?? `Unknown SIM status: ${value(s)}`;
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
    // Python parity: _check_apn_settings — `active_apn_settings.model_copy(deep=True)` first (set_apn_settings given a str or a
    // list stores it before failing, and this read then fails on model_copy).
    if (!(s instanceof PydModel)) throw new PyException('AttributeError', `'${tTypeName(s)}' object has no attribute 'model_copy'`);
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
