import { NOTIFICATION_COLORS } from '@app/contracts';
import { V1Error } from './errors';
import { V1Params } from './params';
import * as rule from './rules';

const params = (q: Record<string, string>) => new V1Params(q, undefined);

/** Runs fn, expects a 400 whose message starts with the parameter's name, and returns the message. */
function rejects(param: string, fn: () => unknown): string {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(V1Error);
  const err = caught as V1Error;
  expect(err.status).toBe(400);
  expect(err.message.startsWith(`${param}:`)).toBe(true);
  return err.message;
}

describe('v1 parameter rules', () => {
  describe('senderLabel (from of rooms/message)', () => {
    it('accepts letters, digits, "-", "_" and spaces, fewer than 15 characters', () => {
      expect(rule.senderLabel('Build Bot-2_x')).toBe('Build Bot-2_x');
      expect(rule.senderLabel('a'.repeat(14))).toBe('a'.repeat(14));
      expect(rule.senderLabel('Jörg Ünal')).toBe('Jörg Ünal');
    });

    it('refuses 15 characters or more', () => {
      expect(rejects('from', () => rule.senderLabel('a'.repeat(15)))).toContain('fewer than 15');
      rejects('from', () => rule.senderLabel('a'.repeat(40)));
    });

    it('refuses other characters', () => {
      for (const bad of ['bot!', 'a.b', '<b>x</b>', 'tab\there', 'new\nline', 'a@b']) {
        rejects('from', () => rule.senderLabel(bad));
      }
    });
  });

  describe('messageText', () => {
    it('accepts up to 10,000 characters', () => {
      expect(rule.messageText('x'.repeat(10_000))).toHaveLength(10_000);
    });
    it('refuses 10,001 characters, naming the limit', () => {
      expect(rejects('message', () => rule.messageText('x'.repeat(10_001)))).toContain('10,000');
    });
    it('counts characters, not UTF-16 units', () => {
      expect(() => rule.messageText('😀'.repeat(10_000))).not.toThrow();
    });
  });

  describe('topicText', () => {
    it('accepts up to 250 characters of plain text, including < and & that are not tags', () => {
      expect(rule.topicText('topic', 't'.repeat(250))).toHaveLength(250);
      expect(rule.topicText('topic', 'a < b && c > d')).toBe('a < b && c > d');
    });
    it('refuses 251 characters', () => {
      expect(rejects('topic', () => rule.topicText('topic', 't'.repeat(251)))).toContain('250');
    });
    it('refuses HTML', () => {
      expect(rejects('topic', () => rule.topicText('topic', 'hello <b>world</b>'))).toContain('HTML');
      rejects('topic', () => rule.topicText('topic', '<script>x</script>'));
      rejects('topic', () => rule.topicText('topic', 'a<br/>b'));
    });
    it('refuses control characters', () => {
      rejects('topic', () => rule.topicText('topic', 'a\u0001b'));
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
      rejects('notify', () => rule.flag(params({ notify: 'yes' }), 'notify', false));
      rejects('notify', () => rule.flag(params({ notify: '2' }), 'notify', false));
    });
  });

  describe('color', () => {
    it('defaults to yellow, also for an empty value', () => {
      expect(rule.color(params({}))).toBe('yellow');
      expect(rule.color(params({ color: '' }))).toBe('yellow');
    });
    it('accepts the five colours', () => {
      for (const c of ['yellow', 'red', 'green', 'purple', 'gray']) expect(rule.color(params({ color: c }))).toBe(c);
    });
    it('resolves random to one of the five, across the whole range of the generator', () => {
      expect(rule.color(params({ color: 'random' }), () => 0)).toBe(NOTIFICATION_COLORS[0]);
      expect(rule.color(params({ color: 'random' }), () => 0.999999)).toBe(NOTIFICATION_COLORS[4]);
      const seen = new Set<string>();
      for (let i = 0; i < 5; i++) seen.add(rule.color(params({ color: 'random' }), () => i / 5));
      expect([...seen].sort()).toEqual([...NOTIFICATION_COLORS].sort());
      for (let i = 0; i < 50; i++) expect(NOTIFICATION_COLORS).toContain(rule.color(params({ color: 'random' })));
    });
    it('refuses other colours', () => {
      expect(rejects('color', () => rule.color(params({ color: 'blue' })))).toContain('random');
      rejects('color', () => rule.color(params({ color: 'grey' })));
    });
  });

  describe('messageFormat', () => {
    it('defaults to html and accepts text', () => {
      expect(rule.messageFormat(params({}))).toBe('html');
      expect(rule.messageFormat(params({ message_format: 'text' }))).toBe('text');
    });
    it('refuses other formats', () => {
      rejects('message_format', () => rule.messageFormat(params({ message_format: 'markdown' })));
    });
  });

  describe('timezone', () => {
    it('defaults to UTC and accepts IANA names', () => {
      expect(rule.timezone(params({}))).toBe('UTC');
      expect(rule.timezone(params({ timezone: 'America/Los_Angeles' }))).toBe('America/Los_Angeles');
    });
    it('refuses unknown zones', () => {
      rejects('timezone', () => rule.timezone(params({ timezone: 'Mars/Olympus' })));
    });
  });

  describe('historyDate', () => {
    it('accepts recent and real calendar dates', () => {
      expect(rule.historyDate('recent')).toBe('recent');
      expect(rule.historyDate('2010-11-19')).toBe('2010-11-19');
      expect(rule.historyDate('2024-02-29')).toBe('2024-02-29');
    });
    it('refuses other values', () => {
      for (const bad of ['2010-13-01', '2023-02-29', '2010-1-1', '19/11/2010', 'yesterday', '2010-11-19T00:00']) {
        rejects('date', () => rule.historyDate(bad));
      }
    });
  });

  describe('positiveId', () => {
    it('accepts positive integers', () => {
      expect(rule.positiveId('owner_user_id', '42')).toBe(42);
    });
    it('refuses everything else', () => {
      for (const bad of ['0', '-1', '1.5', 'abc', '1e3', '9999999999']) rejects('owner_user_id', () => rule.positiveId('owner_user_id', bad));
    });
  });

  describe('roomName', () => {
    it('accepts names with spaces', () => {
      expect(rule.roomName('Dev Ops Room')).toBe('Dev Ops Room');
    });
    it('refuses all-digit names, surrounding white space and names over 50 characters', () => {
      rejects('name', () => rule.roomName('12345'));
      rejects('name', () => rule.roomName(' padded'));
      rejects('name', () => rule.roomName('n'.repeat(51)));
    });
  });

  describe('room and user references', () => {
    it('are required', () => {
      rejects('room_id', () => rule.roomRef(params({})));
      rejects('user_id', () => rule.userRef(params({ user_id: '' })));
    });
    it('take IDs, names with spaces and e-mail addresses as they are', () => {
      expect(rule.roomRef(params({ room_id: 'My Room' }))).toBe('My Room');
      expect(rule.userRef(params({ user_id: 'a@example.com' }))).toBe('a@example.com');
    });
  });

  describe('user fields', () => {
    it('email must be an e-mail address', () => {
      expect(rule.email('jo@example.com')).toBe('jo@example.com');
      rejects('email', () => rule.email('not-an-address'));
    });
    it('mention_name drops a leading @ and allows letters, digits, _ . -', () => {
      expect(rule.mentionName('@jo.smith')).toBe('jo.smith');
      rejects('mention_name', () => rule.mentionName('jo smith'));
    });
    it('password needs 8 characters', () => {
      rejects('password', () => rule.password('short'));
      expect(rule.password('long enough')).toBe('long enough');
    });
    it('name must not be blank', () => {
      rejects('name', () => rule.displayName('   '));
      expect(rule.displayName(' Jo ')).toBe('Jo');
    });
  });
});
