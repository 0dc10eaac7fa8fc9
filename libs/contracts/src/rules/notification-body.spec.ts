import { z } from 'zod';
import { SendNotificationV1 } from '../commands/rooms/send-notification';
import { notificationBodySchema, notificationCommand } from './notification-body';
import { bodyFlag, describeIssue, optionalField } from './request-body';

const actor = { label: 'CI', userId: 3 };
const problem = (value: unknown) => {
  const r = notificationBodySchema.safeParse(value);
  return r.success ? null : describeIssue(r.error.issues[0]);
};

describe('notificationBodySchema', () => {
  it('drops unknown fields and reads "" and null as absent', () => {
    expect(notificationBodySchema.parse({ message: 'hi', color: '', from: null, token: 'x' })).toEqual({ message: 'hi' });
  });

  it('names the field of a problem', () => {
    expect(problem({})).toBe('message: is required');
    expect(problem({ message: 'm', attach_to: 'x'.repeat(101) })).toBe('attach_to: must be at most 100 characters (got 101)');
    expect(problem({ message: 'm', card: 'nope' })).toBe('card: must be an object (got string)');
  });
});

describe('notificationCommand', () => {
  it('gives HipChat defaults (yellow, html, no notify) and a command the rooms service accepts', () => {
    const cmd = notificationCommand(actor, { id: 7 }, notificationBodySchema.parse({ message: 'hi' }));
    expect(cmd).toEqual({ actor, room: { id: 7 }, message: 'hi', messageFormat: 'html', notify: false, color: 'yellow' });
    expect(SendNotificationV1.schema.safeParse(cmd).success).toBe(true);
  });

  it('maps every field, and carries causedBy for a webhook reply', () => {
    const body = notificationBodySchema.parse({
      message: 'hi', color: 'red', notify: 'true', message_format: 'text', from: 'Bot', attach_to: 'm-1',
      card: { style: 'link', id: 'c', title: 't', url: 'https://e.example' },
    });
    const causedBy = { webhookId: 4, deliveryId: 'd-1', depth: 1 };
    const cmd = notificationCommand(actor, { name: 'Ops' }, body, causedBy);
    expect(cmd).toEqual({
      actor, room: { name: 'Ops' }, message: 'hi', messageFormat: 'text', notify: true, color: 'red', from: 'Bot',
      attachTo: 'm-1', card: body.card, causedBy,
    });
    expect(SendNotificationV1.schema.safeParse(cmd).success).toBe(true);
  });
});

describe('request body helpers', () => {
  it('bodyFlag reads JSON and form booleans', () => {
    expect(['true', 'TRUE', '1', 1, true].map((v) => bodyFlag.parse(v))).toEqual([true, true, true, true, true]);
    expect(['false', '0', 0, false].map((v) => bodyFlag.parse(v))).toEqual([false, false, false, false]);
    expect(bodyFlag.safeParse('maybe').success).toBe(false);
  });

  it('optionalField reads null (and "" when asked) as absent', () => {
    expect(optionalField(z.string()).parse(null)).toBeUndefined();
    expect(optionalField(z.string()).parse('')).toBe('');
    expect(optionalField(z.string(), true).parse('')).toBeUndefined();
  });

  it('describeIssue words a type problem and a root', () => {
    const r = z.object({ n: z.number() }).safeParse({ n: 'x' });
    expect(r.success || describeIssue(r.error.issues[0], 'body')).toBe('body.n: must be a number (got string)');
  });
});
