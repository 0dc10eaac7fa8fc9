import { itemName, parseFormat, render, toXml } from './render';

const DECL = '<?xml version="1.0" encoding="UTF-8"?>';

describe('v1 rendering', () => {
  describe('JSON', () => {
    it('answers application/json with the body as it is', () => {
      const out = render('json', { status: 'sent' });
      expect(out.contentType).toMatch(/^application\/json\b/);
      expect(JSON.parse(out.body)).toEqual({ status: 'sent' });
    });
  });

  describe('XML', () => {
    it('answers text/xml with an XML 1.0 UTF-8 declaration', () => {
      const out = render('xml', { status: 'sent' });
      expect(out.contentType).toMatch(/^text\/xml\b/);
      expect(out.body).toBe(`${DECL}<status>sent</status>`);
    });

    it('uses the top-level key as root and mirrors nested objects', () => {
      expect(toXml({ error: { code: 401, type: 'Unauthorized', message: 'Auth token invalid.' } }))
        .toBe(`${DECL}<error><code>401</code><type>Unauthorized</type><message>Auth token invalid.</message></error>`);
    });

    it('renders array items as singular elements', () => {
      expect(toXml({ rooms: [{ room_id: 1, name: 'A' }, { room_id: 2, name: 'B' }] }))
        .toBe(`${DECL}<rooms><room><room_id>1</room_id><name>A</name></room><room><room_id>2</room_id><name>B</name></room></rooms>`);
      expect(toXml({ room: { member_user_ids: [3, 4], participants: [{ user_id: 3, name: 'C' }] } }))
        .toBe(`${DECL}<room><member_user_ids><member_user_id>3</member_user_id><member_user_id>4</member_user_id></member_user_ids>` +
          '<participants><participant><user_id>3</user_id><name>C</name></participant></participants></room>');
      expect(toXml({ users: [{ user_id: 1 }] })).toBe(`${DECL}<users><user><user_id>1</user_id></user></users>`);
      expect(toXml({ messages: [{ message: 'hi' }] })).toBe(`${DECL}<messages><message><message>hi</message></message></messages>`);
    });

    it('knows the singular of item arrays', () => {
      expect(itemName('rooms')).toBe('room');
      expect(itemName('member_user_ids')).toBe('member_user_id');
      expect(itemName('participants')).toBe('participant');
      expect(itemName('mentions')).toBe('mention');
    });

    it('renders an empty list as an empty root element', () => {
      expect(toXml({ rooms: [] })).toMatch(new RegExp(`^${DECL.replace(/[?.]/g, '\\$&')}<rooms( )?/>$|<rooms></rooms>$`));
    });

    it('renders booleans as true/false, numbers as digits, null as an empty element', () => {
      const xml = toXml({ room: { is_archived: false, is_private: true, last_active: 0, guest_access_url: null } });
      expect(xml).toContain('<is_archived>false</is_archived>');
      expect(xml).toContain('<is_private>true</is_private>');
      expect(xml).toContain('<last_active>0</last_active>');
      expect(xml).toMatch(/<guest_access_url\/>|<guest_access_url><\/guest_access_url>/);
    });

    it('renders a top-level boolean', () => {
      expect(toXml({ deleted: true })).toBe(`${DECL}<deleted>true</deleted>`);
    });

    it('escapes < and & in text', () => {
      const xml = toXml({ messages: [{ message: '<b>bold</b> & <script>' }] });
      expect(xml).toContain('<message>&lt;b&gt;bold&lt;/b&gt; &amp; &lt;script&gt;</message>');
      expect(xml).not.toContain('<b>');
    });

    it('never emits characters XML 1.0 forbids', () => {
      const xml = toXml({ messages: [{ message: 'a\u0001b\u0008c\u001Fd\uFFFEe\uD800f\ttab\nline' }] });
      // eslint-disable-next-line no-control-regex
      expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
      expect(xml).toContain('\ttab\nline');
      expect(toXml({ messages: [{ message: 'emoji 😀 stays' }] })).toContain('emoji 😀 stays');
    });

    it('refuses bodies without exactly one top-level key', () => {
      expect(() => toXml({})).toThrow();
      expect(() => toXml({ a: 1, b: 2 })).toThrow();
    });
  });

  describe('parseFormat', () => {
    it('defaults to json and accepts json and xml', () => {
      expect(parseFormat(undefined)).toBe('json');
      expect(parseFormat('')).toBe('json');
      expect(parseFormat('json')).toBe('json');
      expect(parseFormat('xml')).toBe('xml');
    });
    it('returns null for other formats', () => {
      expect(parseFormat('yaml')).toBeNull();
      expect(parseFormat('XML ')).toBeNull();
    });
  });
});
