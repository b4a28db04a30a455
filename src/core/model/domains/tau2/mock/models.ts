import { defineModel, field, t } from '../../../../py/pydantic';

// τ²'s mock domain models (domains/mock/data_model.py, user_data_model.py), field order kept.
const TASK_STATUS = t.literal('pending', 'completed');

export const MockTask = defineModel('Task', [
  field('task_id', t.str),
  field('title', t.str),
  field('description', t.optional(t.str), { default: null }),
  field('status', TASK_STATUS),
]);

export const MockUser = defineModel('User', [field('user_id', t.str), field('name', t.str), field('tasks', t.list(t.str))]);

export const MockDb = defineModel(
  'MockDB',
  [
    field(
      'tasks',
      t.dict(
        t.str,
        t.model(() => MockTask),
      ),
    ),
    field(
      'users',
      t.dict(
        t.str,
        t.model(() => MockUser),
      ),
    ),
  ],
  {
    extra: 'forbid',
  },
);

export const Notification = defineModel(
  'Notification',
  [
    field('notification_id', t.str),
    field('message', t.str),
    field('status', t.literal('unread', 'read'), { default: 'unread' }),
    field('task_id', t.optional(t.str), { default: null }),
  ],
  { extra: 'forbid' },
);

export const MockUserDb = defineModel(
  'MockUserDB',
  [
    field(
      'notifications',
      t.dict(
        t.str,
        t.model(() => Notification),
      ),
      { factory: () => new Map() },
    ),
  ],
  { extra: 'forbid' },
);
