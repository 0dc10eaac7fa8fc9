import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACCESS_MODEL, accessRuleOf, decide, PRINCIPALS, renderAccessDoc, whoMay } from './access-model';

const DOC = join(__dirname, '..', '..', '..', '..', 'docs', 'access.md');

describe('the access model', () => {
  it('has one row per operation', () => {
    const ops = ACCESS_MODEL.map((r) => r.operation);
    expect(ops.filter((o, i) => ops.indexOf(o) !== i)).toEqual([]);
  });

  it('hides a private room from a user who is not in it, whatever the operation', () => {
    for (const rule of ACCESS_MODEL.filter((r) => r.operation.includes('{room}'))) {
      expect([rule.operation, decide(rule, 'user', { privacy: 'private', onThemselves: true })]).toEqual([rule.operation, 'hidden']);
    }
  });

  it('administers a room by its owner and group admins only', () => {
    for (const op of ['PUT /v2/room/{room}', 'DELETE /v2/room/{room}', 'PUT /v2/room/{room}/member/{user}', 'DELETE /v2/room/{room}/member/{user}']) {
      const rule = accessRuleOf(op)!;
      expect(decide(rule, 'room_owner', { privacy: 'private' })).toBe('allowed');
      expect(decide(rule, 'group_admin', { privacy: 'private' })).toBe('allowed');
      expect(decide(rule, 'member', { privacy: 'private' })).toBe('forbidden');
      expect(decide(rule, 'user', { privacy: 'public' })).toBe('forbidden');
    }
  });

  it('lets anyone move themselves, and only the owner and admins move someone else', () => {
    const rule = accessRuleOf('PUT /v2/room/{room}/participant/{user}')!;
    expect(decide(rule, 'user', { privacy: 'public', onThemselves: true })).toBe('allowed');
    expect(decide(rule, 'user', { privacy: 'public', onThemselves: false })).toBe('forbidden');
    expect(decide(rule, 'room_owner', { privacy: 'public', onThemselves: false })).toBe('allowed');
  });

  it('hides a webhook from whoever did not create it, but the owner and group admins', () => {
    const rule = accessRuleOf('GET /v2/room/{room}/webhook/{id}')!;
    expect(decide(rule, 'creator', { privacy: 'private', isCreator: true })).toBe('allowed');
    expect(decide(rule, 'member', { privacy: 'private' })).toBe('hidden');
    expect(decide(rule, 'addon', { privacy: 'public' })).toBe('hidden');
    expect(decide(rule, 'room_owner', { privacy: 'public' })).toBe('allowed');
  });

  it('keeps a token confined to a room out of the group', () => {
    for (const op of ['POST /v2/room', 'POST /v2/user', 'POST /v2/token', 'POST /v2/addons']) {
      expect([op, decide(accessRuleOf(op)!, 'addon_in_room', { privacy: 'public' })]).toEqual([op, 'forbidden']);
      expect([op, decide(accessRuleOf(op)!, 'room_token', { privacy: 'public' })]).toEqual([op, 'forbidden']);
    }
  });

  it('says who may in words', () => {
    expect(whoMay(accessRuleOf('DELETE /v2/room/{room}')!)).toBe('group admin, room owner, addon, addon in room');
    expect(whoMay(accessRuleOf('GET /v2/capabilities')!)).toBe('anyone (no token)');
    expect(whoMay(accessRuleOf('GET /files/{path}')!)).toMatch(/^anyone holding the link in a public room; in a private room group admin, room owner, member, user \(public rooms\)/);
    expect(PRINCIPALS).toContain('v1_notification');
  });

  it('is what docs/access.md says (npm run docs:access writes it)', () => {
    expect(readFileSync(DOC, 'utf8')).toBe(renderAccessDoc());
  });
});
