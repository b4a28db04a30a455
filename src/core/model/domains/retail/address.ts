import type { PyValue } from '../../../py/value';

/** The address dict both address tools write: values verbatim, `state` before `country`. */
// Python parity: the dict literals of ModifyPendingOrderAddress.invoke and ModifyUserAddress.invoke
// (the data files have `country` before `state`).
export function newAddress(a: {
  readonly address1: PyValue;
  readonly address2: PyValue;
  readonly city: PyValue;
  readonly state: PyValue;
  readonly country: PyValue;
  readonly zip: PyValue;
}): Map<string, PyValue> {
  return new Map<string, PyValue>([
    ['address1', a.address1],
    ['address2', a.address2],
    ['city', a.city],
    ['state', a.state],
    ['country', a.country],
    ['zip', a.zip],
  ]);
}
