import { ZodBodyPipe } from '../http/validation';
import { privateMessageBody, userBody, userFieldsOf } from './users.schemas';

describe('v2 user bodies', () => {
  const pipe = new ZodBodyPipe(userBody);

  it('treats an empty password, mention name or time zone (and null) as none, and drops unknown fields', () => {
    const body = pipe.transform({ name: 'Ada', email: 'ada@example.com', password: '', mention_name: '', timezone: null, token: 'x' });
    expect(userFieldsOf(body)).toEqual({ name: 'Ada', email: 'ada@example.com' });
  });

  it('reads admin or owner among the roles as a group admin, unless is_group_admin says otherwise', () => {
    expect(userFieldsOf(pipe.transform({ name: 'A', email: 'a@example.com', roles: ['user', 'admin'] })).isGroupAdmin).toBe(true);
    expect(userFieldsOf(pipe.transform({ name: 'A', email: 'a@example.com', roles: ['user'] })).isGroupAdmin).toBe(false);
    expect(userFieldsOf(pipe.transform({ name: 'A', email: 'a@example.com', roles: ['owner'], is_group_admin: false })).isGroupAdmin).toBe(false);
  });

  it.each([
    [{ email: 'a@example.com' }, /^name: is required$/],
    [{ name: 'A' }, /^email: is required$/],
    [{ name: 'A', email: 'a@example.com', password: 'short' }, /^password: must be at least 8/],
    [{ name: 'A', email: 'a@example.com', timezone: 'Mars/Base' }, /^timezone: /],
    [{ name: 'A', email: 'a@example.com', is_group_admin: 'yes' }, /^is_group_admin: /],
  ])('answers 400 naming the field for %j', (body, message) => {
    expect(() => pipe.transform(body)).toThrow(message);
  });

  it('checks a private message: 1 to 10,000 characters, text or html', () => {
    const msg = new ZodBodyPipe(privateMessageBody);
    expect(msg.transform({ message: 'hi' })).toEqual({ message: 'hi' });
    expect(() => msg.transform({ message: '' })).toThrow(/^message: must not be empty/);
    expect(() => msg.transform({ message: 'x'.repeat(10_001) })).toThrow(/^message: must be at most 10,000/);
    expect(() => msg.transform({ message: 'x', message_format: 'markdown' })).toThrow(/^message_format: /);
  });
});
