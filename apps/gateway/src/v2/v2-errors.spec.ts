import { v2ErrorOfCommand } from './v2-errors';

describe('v2ErrorOfCommand', () => {
  it('words the texts clients match on', () => {
    expect(v2ErrorOfCommand({ code: 'not_found', reason: 'room_not_found', field: 'room', detail: { ref: 'Ops' } }).message).toBe('Room Ops not found');
    const taken = v2ErrorOfCommand({ code: 'conflict', reason: 'room_name_taken', field: 'name', detail: { name: 'Ops' } });
    expect([taken.status, taken.message]).toEqual([400, 'Another room exists with that name.']);
  });

  it('answers an unknown user 404, an unknown owner 400 naming owner_user_id', () => {
    const user = v2ErrorOfCommand({ code: 'not_found', reason: 'user_not_found', field: 'user', detail: { ref: 'ada@example.com' } });
    expect([user.status, user.message]).toEqual([404, 'User ada@example.com not found']);
    const owner = v2ErrorOfCommand({ code: 'not_found', reason: 'user_not_found', field: 'owner', detail: { ref: 999 } });
    expect([owner.status, owner.message]).toEqual([400, 'owner_user_id: user 999 not found']);
  });

  it('names the v2 field of a broken rule', () => {
    const e = v2ErrorOfCommand({ code: 'invalid', reason: 'rule', field: 'messageFormat', detail: { problem: 'must be html or text' } });
    expect([e.status, e.message]).toEqual([400, 'message_format: must be html or text']);
  });

  it('answers 503 when nothing was applied, never 500 for an outage', () => {
    expect(v2ErrorOfCommand({ code: 'unavailable', reason: 'dependency_failed' }).status).toBe(503);
    expect(v2ErrorOfCommand({ code: 'unavailable', reason: 'deadline_passed' }).status).toBe(503);
  });

  it('refuses a room token outside its room with 403', () => {
    expect(v2ErrorOfCommand({ code: 'forbidden', reason: 'outside_token_room', field: 'room' }).status).toBe(403);
  });

  it('names an add-on\'s URLs without their query, where add-on frameworks put tokens', () => {
    const descriptor = v2ErrorOfCommand({ code: 'invalid', reason: 'addon_descriptor_invalid', field: 'url',
      detail: { url: 'https://addon.example/d.json?key=SECRETQ', problem: 'could not be fetched: it answered HTTP 404' } });
    expect(descriptor.message).toBe('Add-on descriptor https://addon.example/d.json: could not be fetched: it answered HTTP 404');
    const callback = v2ErrorOfCommand({ code: 'invalid', reason: 'addon_callback_failed', field: 'url',
      detail: { url: 'https://u:SECRETP@addon.example/installed?token=SECRETQ', problem: 'it answered HTTP 500' } });
    expect(callback.message).toBe('The add-on\'s installation callback https://addon.example/installed failed (it answered HTTP 500); nothing was installed.');
  });
});
