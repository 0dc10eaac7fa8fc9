import { parseRoomRef, parseUserRef } from '../commands/refs';
import { SendNotificationV1 } from '../commands/rooms/send-notification';
import { field, problemOf } from './fields';
import { storableTextProblem } from './text';

describe('field rules', () => {
  it('refuses text PostgreSQL, JSON or XML cannot carry, in every text field', () => {
    expect(storableTextProblem('a\u0000b')).toBe('must not contain NUL characters');
    expect(storableTextProblem('x\ud800')).toMatch(/unpaired surrogate/);
    expect(storableTextProblem('emoji \ud83d\ude00 is fine')).toBeNull();
    expect(problemOf(field.topic, 'a\u0000')).toBe('must not contain NUL characters');
    expect(problemOf(field.email, 'a\udc00@b.co')).toMatch(/unpaired surrogate/);
  });

  it('words each rule for people, counting characters as a person does', () => {
    expect(problemOf(field.topic, 't'.repeat(251))).toBe('must be at most 250 characters (got 251)');
    expect(problemOf(field.topic, '\ud83d\ude00'.repeat(250))).toBeNull();
    expect(problemOf(field.topic, '<b>x</b>')).toBe('must not contain HTML');
    expect(problemOf(field.roomName, '12345')).toMatch(/only digits/);
    expect(problemOf(field.senderLabel, 'fifteen chars!!')).toMatch(/fewer than 15/);
    expect(problemOf(field.color, 'pink')).toBe('must be one of yellow, green, red, purple, gray, random (got "pink")');
    expect(problemOf(field.color, 5)).toBe('must be text');
    expect(problemOf(field.timezone, 'Mars/Olympus')).toMatch(/IANA time zone/);
    expect(problemOf(field.historyDate, '2023-02-30')).toMatch(/calendar date/);
    expect(field.mentionName.parse('@ada')).toBe('ada');
    expect(field.displayName.parse('  Ada  ')).toBe('Ada');
  });

  it('checks a whole command at receipt, naming the field', () => {
    const result = SendNotificationV1.schema.safeParse({
      actor: { label: 'x' }, room: { id: 1 }, from: 'CI', message: 5, messageFormat: 'html', notify: false, color: 'yellow',
    });
    expect(result.success).toBe(false);
    expect(!result.success && result.error.issues[0]).toMatchObject({ path: ['message'], message: 'must be text' });
  });
});

describe('references', () => {
  it('reads all digits as an id and anything else as a name or an e-mail address', () => {
    expect(parseRoomRef('42')).toEqual({ id: 42 });
    expect(parseRoomRef('Ops Team')).toEqual({ name: 'Ops Team' });
    expect(parseRoomRef('0')).toEqual({ name: '0' });
    expect(parseUserRef('7')).toEqual({ id: 7 });
    expect(parseUserRef('ada@example.com')).toEqual({ email: 'ada@example.com' });
  });
});
