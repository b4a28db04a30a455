import { PyException } from '../../../../py/errors';
import { parseJson } from '../../../../py/json-parse';
import { create, PydModel, tStr, type TDict, type TValue } from '../../../../py/pydantic';
import { key, type Tau2Domain, type ToolkitDef } from '../toolkit';
import { MockDb, MockTask, MockUserDb, Notification } from './models';

const dictOf = (db: PydModel, name: string): TDict => db.get(name) as TDict;
const valueError = (text: string): PyException => new PyException('ValueError', text);

// τ²'s MockTools (domains/mock/tools.py).
const agent: ToolkitDef = {
  className: 'MockTools',
  db: MockDb,
  tools: [
    {
      name: 'create_task',
      toolType: 'write',
      mutates: true,
      params: [{ name: 'user_id' }, { name: 'title' }, { name: 'description', default: null }],
      run: (self, a) => {
        const users = dictOf(self.db, 'users');
        const tasks = dictOf(self.db, 'tasks');
        const userId = key(a.get('user_id')!);
        if (userId === null || !users.has(userId)) throw valueError(`User ${tStr(a.get('user_id')!)} not found`);
        const taskId = `task_${tasks.size + 1}`;
        const task = create(MockTask, { task_id: taskId, title: a.get('title')!, description: a.get('description')!, status: 'pending' });
        tasks.set(taskId, task);
        ((users.get(userId) as PydModel).get('tasks') as TValue[]).push(taskId);
        return task;
      },
    },
    { name: 'get_users', toolType: 'read', mutates: false, params: [], run: (self) => [...dictOf(self.db, 'users').values()] },
    {
      name: 'update_task_status',
      toolType: 'write',
      mutates: true,
      params: [{ name: 'task_id' }, { name: 'status' }],
      run: (self, a) => {
        const tasks = dictOf(self.db, 'tasks');
        const id = key(a.get('task_id')!);
        if (id === null || !tasks.has(id)) throw valueError(`Task ${tStr(a.get('task_id')!)} not found`);
        const task = tasks.get(id) as PydModel;
        task.set('status', a.get('status')!);
        return task;
      },
    },
    { name: 'transfer_to_human_agents', toolType: 'generic', mutates: false, params: [{ name: 'summary' }], run: () => 'Transfer successful' },
  ],
  functions: [
    {
      name: 'assert_number_of_tasks',
      params: [{ name: 'user_id' }, { name: 'expected_number' }],
      run: (self, a) => {
        const users = dictOf(self.db, 'users');
        const id = key(a.get('user_id')!);
        if (id === null || !users.has(id)) throw valueError(`User ${tStr(a.get('user_id')!)} not found`);
        const n = ((users.get(id) as PydModel).get('tasks') as TValue[]).length;
        const want = a.get('expected_number');
        return typeof want === 'bigint' ? BigInt(n) === want : typeof want === 'number' && n === want;
      },
    },
    {
      name: 'assert_task_status',
      params: [{ name: 'task_id' }, { name: 'expected_status' }],
      run: (self, a) => {
        const tasks = dictOf(self.db, 'tasks');
        const id = key(a.get('task_id')!);
        if (id === null || !tasks.has(id)) throw valueError(`Task ${tStr(a.get('task_id')!)} not found`);
        return (tasks.get(id) as PydModel).get('status') === a.get('expected_status');
      },
    },
  ],
};

// τ²'s MockUserTools (domains/mock/user_tools.py).
const user: ToolkitDef = {
  className: 'MockUserTools',
  db: MockUserDb,
  tools: [
    { name: 'check_notifications', toolType: 'read', mutates: false, params: [], run: (self) => [...dictOf(self.db, 'notifications').values()] },
    {
      name: 'dismiss_notification',
      toolType: 'write',
      mutates: true,
      params: [{ name: 'notification_id' }],
      run: (self, a) => {
        const ns = dictOf(self.db, 'notifications');
        const id = key(a.get('notification_id')!);
        if (id === null || !ns.has(id)) throw valueError(`Notification ${tStr(a.get('notification_id')!)} not found`);
        (ns.get(id) as PydModel).set('status', 'read');
        return `Notification ${id} dismissed`;
      },
    },
  ],
  functions: [
    {
      name: 'add_notification',
      params: [{ name: 'notification_id' }, { name: 'message' }, { name: 'task_id', default: null }],
      run: (self, a) => {
        const n = create(Notification, { notification_id: a.get('notification_id')!, message: a.get('message')!, task_id: a.get('task_id')! });
        const id = a.get('notification_id');
        if (typeof id === 'string') dictOf(self.db, 'notifications').set(id, n);
        return n;
      },
    },
    {
      name: 'assert_notification_status',
      params: [{ name: 'notification_id' }, { name: 'expected_status' }],
      run: (self, a) => {
        const ns = dictOf(self.db, 'notifications');
        const id = key(a.get('notification_id')!);
        if (id === null || !ns.has(id)) throw valueError(`Notification ${tStr(a.get('notification_id')!)} not found`);
        return (ns.get(id) as PydModel).get('status') === a.get('expected_status');
      },
    },
  ],
};

export const MOCK: Tau2Domain = {
  name: 'mock',
  agent,
  user,
  dbFiles: { agent: 'db.json', user: 'user_db.json' },
  parseDbFile: (text) => parseJson(text) as TValue,
};
