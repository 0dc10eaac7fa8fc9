import { field } from '@app/contracts';
import { RequestParams } from '../shared/request-params';
import { V1Error } from './errors';
import * as rule from './rules';

const params = (q: Record<string, string>) => RequestParams.of(q);

/** Runs fn, expects a 400 (or a parameter problem) whose message starts with the parameter's name; returns the message. */
function rejects(param: string, fn: () => unknown): string {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  const err = caught as V1Error;
  expect(err).toBeInstanceOf(Error);
  if (err instanceof V1Error) expect(err.status).toBe(400);
  expect(err.message.startsWith(`${param}: `)).toBe(true);
  return err.message;
}

/**
 * The v1 parameters through the field rules of `@app/contracts`: the messages must read as
 * the v1 API's always did, `<param>: <rule>`.
 */
describe('v1 parameter rules', () => {
  describe('from of rooms/message (field.senderLabel)', () => {
    const from = (v: string) => rule.valid('from', field.senderLabel, v);
    it('accepts letters, digits, "-", "_" and spaces, fewer than 15 characters', () => {
      expect(from('Build Bot-2_x')).toBe('Build Bot-2_x');
      expect(from('a'.repeat(14))).toBe('a'.repeat(14));
      expect(from('Jörg Ünal')).toBe('Jörg Ünal');
    });
    it('refuses 15 characters or more', () => {
      expect(rejects('from', () => from('a'.repeat(15)))).toBe('from: must be fewer than 15 characters (got 15)');
      rejects('from', () => from('a'.repeat(40)));
    });
    it('refuses other characters', () => {
      for (const bad of ['bot!', 'a.b', '<b>x</b>', 'tab\there', 'new\nline', 'a@b']) {
        expect(rejects('from', () => from(bad))).toBe('from: may contain only letters, digits, "-", "_" and spaces');
      }
    });
  });

  describe('message (field.messageText)', () => {
    const message = (v: string) => rule.valid('message', field.messageText, v);
    it('accepts up to 10,000 characters, counting characters rather than UTF-16 units', () => {
      expect(message('x'.repeat(10_000))).toHaveLength(10_000);
      expect(() => message('😀'.repeat(10_000))).not.toThrow();
    });
    it('refuses 10,001 characters, naming the limit', () => {
      expect(rejects('message', () => message('x'.repeat(10_001)))).toBe('message: must be at most 10,000 characters (got 10,001)');
    });
  });

  describe('topic (field.topic)', () => {
    const topic = (v: string) => rule.valid('topic', field.topic, v);
    it('accepts up to 250 characters of plain text, including < and & that are not tags', () => {
      expect(topic('t'.repeat(250))).toHaveLength(250);
      expect(topic('a < b && c > d')).toBe('a < b && c > d');
    });
    it('refuses 251 characters, HTML and control characters', () => {
      expect(rejects('topic', () => topic('t'.repeat(251)))).toBe('topic: must be at most 250 characters (got 251)');
      expect(rejects('topic', () => topic('hello <b>world</b>'))).toBe('topic: must not contain HTML');
      rejects('topic', () => topic('<script>x</script>'));
      rejects('topic', () => topic('a<br/>b'));
      expect(rejects('topic', () => topic('a\u0001b'))).toBe('topic: must not contain control characters');
    });
  });

  describe('validRequired', () => {
    it('answers "<param>: is required" when absent or empty, else checks the rule', () => {
      expect(rejects('topic', () => rule.validRequired(params({}), 'topic', field.topic))).toBe('topic: is required');
      expect(rejects('topic', () => rule.validRequired(params({ topic: '' }), 'topic', field.topic))).toBe('topic: is required');
      expect(rejects('topic', () => rule.validRequired(params({ topic: 't'.repeat(251) }), 'topic', field.topic))).toContain('250');
      expect(rule.validRequired(params({ topic: 'Deploy' }), 'topic', field.topic)).toBe('Deploy');
    });
  });

  describe('flag', () => {
    it('reads 0/1/true/false case-insensitively, and absent or empty as the default', () => {
      expect(rule.flag(params({ notify: '1' }), 'notify', false)).toBe(true);
      expect(rule.flag(params({ notify: 'true' }), 'notify', false)).toBe(true);
      expect(rule.flag(params({ notify: 'TRUE' }), 'notify', false)).toBe(true);
      expect(rule.flag(params({ notify: '0' }), 'notify', true)).toBe(false);
      expect(rule.flag(params({ notify: 'false' }), 'notify', true)).toBe(false);
      expect(rule.flag(params({}), 'notify', false)).toBe(false);
      expect(rule.flag(params({ notify: '' }), 'notify', true)).toBe(true);
    });
    it('refuses anything else', () => {
      expect(rejects('notify', () => rule.flag(params({ notify: 'yes' }), 'notify', false))).toBe('notify: must be 0, 1, true or false (got "yes")');
      rejects('notify', () => rule.flag(params({ notify: '2' }), 'notify', false));
    });
  });

  describe('color (field.color)', () => {
    const color = (q: Record<string, string>) => rule.validOptional(params(q), 'color', field.color, 'yellow' as const);
    it('defaults to yellow, also for an empty value', () => {
      expect(color({})).toBe('yellow');
      expect(color({ color: '' })).toBe('yellow');
    });
    it('accepts the five colours and random, which the rooms service resolves', () => {
      for (const c of ['yellow', 'red', 'green', 'purple', 'gray', 'random']) expect(color({ color: c })).toBe(c);
    });
    it('refuses other colours', () => {
      expect(rejects('color', () => color({ color: 'blue' }))).toBe('color: must be one of yellow, green, red, purple, gray, random (got "blue")');
      rejects('color', () => color({ color: 'grey' }));
    });
  });

  describe('message_format (field.messageFormat)', () => {
    const format = (q: Record<string, string>) => rule.validOptional(params(q), 'message_format', field.messageFormat, 'html' as const);
    it('defaults to html and accepts text', () => {
      expect(format({})).toBe('html');
      expect(format({ message_format: 'text' })).toBe('text');
    });
    it('refuses other formats', () => {
      expect(rejects('message_format', () => format({ message_format: 'markdown' }))).toMatch(/^message_format: must be one of (html, text|text, html) \(got "markdown"\)$/);
    });
  });

  describe('timezone (field.timezone)', () => {
    const tz = (q: Record<string, string>) => rule.validOptional(params(q), 'timezone', field.timezone, 'UTC');
    it('defaults to UTC and accepts IANA names', () => {
      expect(tz({})).toBe('UTC');
      expect(tz({ timezone: 'America/Los_Angeles' })).toBe('America/Los_Angeles');
    });
    it('refuses unknown zones', () => {
      expect(rejects('timezone', () => tz({ timezone: 'Mars/Olympus' })))
        .toBe('timezone: must be an IANA time zone name such as UTC or America/New_York (got "Mars/Olympus")');
    });
  });

  describe('date (field.historyDate)', () => {
    const date = (v: string) => rule.valid('date', field.historyDate, v);
    it('accepts recent and real calendar dates', () => {
      expect(date('recent')).toBe('recent');
      expect(date('2010-11-19')).toBe('2010-11-19');
      expect(date('2024-02-29')).toBe('2024-02-29');
    });
    it('refuses other values', () => {
      for (const bad of ['2010-13-01', '2023-02-29', '2010-1-1', '19/11/2010', 'yesterday', '2010-11-19T00:00']) {
        expect(rejects('date', () => date(bad))).toBe(`date: must be "recent" or a calendar date YYYY-MM-DD (got "${bad}")`);
      }
    });
  });

  describe('owner_user_id of rooms/create', () => {
    const owner = (v: string) => rule.ownerRef(params({ owner_user_id: v }));
    it('is an ID (all digits) or an e-mail address, as user_id is', () => {
      expect(owner('42')).toEqual({ id: 42 });
      expect(owner('ada@example.com')).toEqual({ email: 'ada@example.com' });
    });
    it('refuses what is neither, naming the parameter', () => {
      for (const bad of ['0', '-1', '1.5', 'abc', '1e3', '9999999999', 'ada@', '@ada']) {
        expect(rejects('owner_user_id', () => owner(bad))).toBe(`owner_user_id: must be a user ID or an e-mail address (got "${bad}")`);
      }
      expect(rejects('owner_user_id', () => owner(''))).toBe('owner_user_id: is required');
      expect(rejects('owner_user_id', () => owner('a\u0007@example.com'))).toBe('owner_user_id: must not contain control characters');
    });
  });

  describe('name of rooms/create (field.roomName)', () => {
    const name = (v: string) => rule.valid('name', field.roomName, v);
    it('accepts names with spaces', () => {
      expect(name('Dev Ops Room')).toBe('Dev Ops Room');
    });
    it('refuses all-digit names, surrounding white space and names over 50 characters', () => {
      expect(rejects('name', () => name('12345'))).toBe('name: must not be only digits (it would be read as a room ID)');
      expect(rejects('name', () => name(' padded'))).toBe('name: must not start or end with white space');
      expect(rejects('name', () => name('n'.repeat(51)))).toBe('name: must be at most 50 characters (got 51)');
    });
  });

  describe('room and user references', () => {
    it('are required', () => {
      expect(rejects('room_id', () => rule.roomRef(params({})))).toBe('room_id: is required');
      expect(rejects('user_id', () => rule.userRef(params({ user_id: '' })))).toBe('user_id: is required');
    });
    it('are parsed once: all digits is an ID, anything else a name or an e-mail address', () => {
      expect(rule.roomRef(params({ room_id: 'My Room' }))).toEqual({ name: 'My Room' });
      expect(rule.roomRef(params({ room_id: '42' }))).toEqual({ id: 42 });
      expect(rule.userRef(params({ user_id: 'a@example.com' }))).toEqual({ email: 'a@example.com' });
      expect(rule.userRef(params({ user_id: '7' }))).toEqual({ id: 7 });
    });
    it('are bounded and free of control characters', () => {
      expect(rejects('room_id', () => rule.roomRef(params({ room_id: 'r'.repeat(101) })))).toBe('room_id: must be at most 100 characters (got 101)');
      expect(rejects('room_id', () => rule.roomRef(params({ room_id: 'a\u0007' })))).toBe('room_id: must not contain control characters');
      rejects('user_id', () => rule.userRef(params({ user_id: 'u'.repeat(255) })));
    });
  });

  describe('user fields', () => {
    it('email must be an e-mail address', () => {
      expect(rule.valid('email', field.email, 'jo@example.com')).toBe('jo@example.com');
      expect(rejects('email', () => rule.valid('email', field.email, 'not-an-address'))).toBe('email: must be an e-mail address (got "not-an-address")');
    });
    it('mention_name drops a leading @ and allows letters, digits, _ . -', () => {
      expect(rule.valid('mention_name', field.mentionName, '@jo.smith')).toBe('jo.smith');
      expect(rejects('mention_name', () => rule.valid('mention_name', field.mentionName, 'jo smith')))
        .toBe('mention_name: may contain only letters, digits, "_", "." and "-"');
    });
    it('password needs 8 characters', () => {
      expect(rejects('password', () => rule.valid('password', field.password, 'short'))).toBe('password: must be at least 8 characters');
      expect(rule.valid('password', field.password, 'long enough')).toBe('long enough');
    });
    it('name must not be blank, and is trimmed', () => {
      expect(rejects('name', () => rule.valid('name', field.displayName, '   '))).toBe('name: must not be blank');
      expect(rule.valid('name', field.displayName, ' Jo ')).toBe('Jo');
    });
    it('title allows at most 50 characters', () => {
      expect(rejects('title', () => rule.valid('title', field.title, 't'.repeat(51)))).toBe('title: must be at most 50 characters (got 51)');
    });
  });
});
