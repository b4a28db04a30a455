/** τ²'s TelecomUserTools functions (domains/telecom/user_tools.py) that are not tools: set-up and assertions the tasks call on the phone. */
import { PyException, type PyExceptionType } from '../../../../py/errors';
import { pyLower } from '../../../../py/lower';
import { PydModel, tRepr } from '../../../../py/pydantic';
import { atLeast, attr, same, setAttr, text } from '../py-attrs';
import type { MethodDef, Toolkit } from '../toolkit';
import { APNNames, NetworkStatus, PerformanceLevel, SimStatus } from './user-models';

import {
  sur,
  on,
  set,
  get,
  ONOFF,
  simStatus,
  simulateNetworkSearch,
  mobileDataWorking,
  speedTest,
  canSendMms,
  toggle,
  toggleAirplane,
  connectVpn,
  assertion,
  appGet,
  fn,
  g,
  lowerArg,
} from './device';

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
    if (!perms.fields.has(permission)) {
      // Python parity: remove_app_permission's `hasattr(permissions, permission)` is true of BaseModel's own attributes too,
      // and pydantic's __setattr__ then raises for those below (the dunders it lets through change nothing model_dump reads).
      const raised = MODEL_SETATTR_ERRORS.get(permission);
      if (raised) throw new PyException(raised[0], raised[1].replaceAll('{n}', permission));
      return [false, `Permission '${permission}' not tracked for app '${text(name)}'.`];
    }
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
    // Python parity: `speed >= expected_speed` — a str (or None) expected speed raises TypeError.
    const fast = atLeast(s, g(a, 'expected_speed'));
    const d = g(a, 'expected_desc');
    return d === null ? fast : fast && pyLower(desc) === lowerArg(d);
  }),
  fn('assert_internet_not_excellent', [], (self) => pyLower(speedTest(self)[1]) !== 'excellent'),
  fn('assert_can_send_mms', ['expected_status'], (self, a) => same(canSendMms(self), g(a, 'expected_status'))),
  fn('assert_mobile_data_usage_exceeded', ['expected_status'], (self, a) => same(attr(sur(self), 'mobile_data_usage_exceeded'), g(a, 'expected_status'))),
];

/** `setattr(model, name, False)` on an AppPermissions (pydantic 2's BaseModel) for a name that is no field: what it raises. */
// Python parity: BaseModel.__setattr__ (pydantic 2.13) of BaseModel's methods, properties and object's slots.
const MODEL_SETATTR_ERRORS = new Map<string, readonly [PyExceptionType, string]>([
  ...'construct copy dict from_orm json model_computed_fields model_config model_construct model_copy model_dump model_dump_json model_fields model_json_schema model_parametrized_name model_post_init model_rebuild model_validate model_validate_json model_validate_strings parse_file parse_obj parse_raw schema schema_json update_forward_refs validate'
    .split(' ')
    .map((n) => [n, ['ValueError', '"AppPermissions" object has no field "{n}"']] as const),
  ...'__fields__ __fields_set__ model_extra model_fields_set'
    .split(' ')
    .map((n) => [n, ['AttributeError', "property '{n}' of 'AppPermissions' object has no setter"]] as const),
  ['__class__', ['TypeError', "__class__ must be set to a class, not 'bool' object"]],
  ['__dict__', ['TypeError', "__dict__ must be set to a dictionary, not a 'bool'"]],
  ['__weakref__', ['AttributeError', "attribute '__weakref__' of 'BaseModelNoExtra' objects is not writable"]],
]);

/** TelecomUserTools' attributes getattr finds that this port does not carry: its properties and private helpers. */
// Python parity: TelecomUserTools (domains/telecom/user_tools.py): non-tool attributes.
export const TELECOM_USER_PYTHON_ONLY: readonly string[] = [
  'device',
  'surroundings',
  ...'check_status_bar check_network_status check_network_mode_preference set_network_mode_preference get_mobile_data_working run_speed_test toggle_airplane_mode check_sim_status reseat_sim_card toggle_data toggle_roaming check_data_restriction_status toggle_data_saver_mode check_apn_settings set_apn_settings reset_apn_settings check_wifi_status toggle_wifi check_wifi_calling_status toggle_wifi_calling check_vpn_status connect_vpn disconnect_vpn check_installed_apps check_app_status check_app_permissions grant_app_permission can_send_mms reboot_device check_payment_request make_payment'
    .split(' ')
    .map((x) => `_${x}`),
];
