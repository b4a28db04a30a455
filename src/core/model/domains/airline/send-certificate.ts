import { contains, getItem, setItem } from '../../../py/ops';
import { pyStr } from '../../../py/repr';
import type { PyValue } from '../../../py/value';
import { defineTool } from '../tool';

const CERTIFICATE_NUMBERS = ['3221322', '3221323', '3221324'] as const;

export const sendCertificate = defineTool({
  name: 'send_certificate',
  className: 'SendCertificate',
  module: 'tau_bench.envs.airline.tools.send_certificate',
  params: ['user_id', 'amount'],
  writes: true,
  invoke: (data, { user_id, amount }) => {
    const users = getItem(data, 'users');
    if (!contains(users, user_id)) return 'Error: user not found';
    const user = getItem(users, user_id);

    for (const n of CERTIFICATE_NUMBERS) {
      const paymentId = `certificate_${n}`;
      if (!contains(getItem(user, 'payment_methods'), paymentId)) {
        setItem(
          getItem(user, 'payment_methods'),
          paymentId,
          new Map<string, PyValue>([
            ['source', 'certificate'],
            ['amount', amount],
            ['id', paymentId],
          ]),
        );
        return `Certificate ${paymentId} added to user ${pyStr(user_id)} with amount ${pyStr(amount)}.`;
      }
    }
    // Python parity: SendCertificate.invoke falls off its loop and returns None once all three ids exist.
    return null;
  },
});
