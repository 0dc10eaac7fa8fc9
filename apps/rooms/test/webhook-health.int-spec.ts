import { randomUUID } from 'node:crypto';
import {
  Actor, CreateBridgeV1, CreateRoomV1, CreateWebhookV1, GetBridgeV1, EnableWebhookV1, GetHistoryV2, GetWebhookV1, ListAllWebhooksV1, ListRegistrationsV1,
  ReportWebhookHealthV1, RoomNotificationSentV2, UpdateRoomV1, WebhookHealthReport, WebhookRegistrationsChangedV1,
} from '@app/contracts';
import { Client } from 'pg';
import { EventCapture, RawCommands, RoomsRpc, RoomsStack, startStack } from './support';

/**
 * Webhook health as the rooms service keeps it from the dispatchers' reports: each report
 * shown in the webhook's record, a webhook failing past the thresholds (here 2 s and 3
 * failures) disabled with a notification in its room's history, and enabled again.
 */
describe('webhook health and automatic disabling (real Postgres, RabbitMQ)', () => {
  let stack: RoomsStack;
  let rpc: RoomsRpc;
  let raw: RawCommands;
  let capture: EventCapture;
  let actor: Actor;
  let n = 0;

  beforeAll(async () => {
    stack = await startStack({ WEBHOOK_DISABLE_AFTER: '2s', WEBHOOK_DISABLE_MIN_FAILURES: '3' });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    raw = await RawCommands.open(stack.amqpUrl, stack.namespace);
    const owner = await rpc.createUser('Health Owner');
    actor = { label: 'health-test', userId: owner.id };
  });
  afterAll(async () => {
    await raw?.close();
    await rpc?.close();
    await capture?.stop();
    await stack?.stop();
  });

  /** An hour ago: every reported attempt is in the past, before an enable made now. */
  const T0 = Date.now() - 3_600_000;
  const at = (ms: number) => new Date(T0 + ms).toISOString();
  const createRoom = async () => (await rpc.send(CreateRoomV1, {
    actor, name: `Health ${n++}`, owner: { id: actor.userId! }, privacy: 'public', topic: '', guestAccess: false,
  })).room;
  const register = async (roomId: number, name: string, url = `https://receiver.example.com/hooks/${n++}?token=s3cret`) =>
    (await rpc.send(CreateWebhookV1, { actor, room: { id: roomId }, url, event: 'room_message', name })).webhook;
  const get = async (roomId: number, id: number) => (await rpc.send(GetWebhookV1, { actor, room: { id: roomId }, webhook: { id } })).webhook;
  const report = (...reports: WebhookHealthReport[]) => rpc.send(ReportWebhookHealthV1, { reports });
  const failures = (webhookId: number, count: number, from: number, to: number, lastError = 'HTTP 500'): WebhookHealthReport => ({
    webhookId, lastSuccessAt: null, failuresAfterSuccess: count, firstFailureAt: at(from), lastFailureAt: at(to), lastError,
  });
  const success = (webhookId: number, when: number): WebhookHealthReport => ({
    webhookId, lastSuccessAt: at(when), failuresAfterSuccess: 0, firstFailureAt: null, lastFailureAt: null, lastError: null,
  });
  const registration = async (id: number) => (await rpc.send(ListRegistrationsV1, {})).registrations.find((r) => r.id === id);
  const history = async (roomId: number) =>
    (await rpc.send(GetHistoryV2, { room: { id: roomId }, recentOnly: true, offset: 0, details: false })).messages;

  it('shows each report in the webhook\'s record: the last success, then the failures after it', async () => {
    const room = await createRoom();
    const hook = await register(room.id, 'Reported');
    expect(hook).toMatchObject({
      enabled: true, disabledReason: null, disabledAt: null,
      health: { lastSuccessAt: null, failingSince: null, consecutiveFailures: 0, lastFailureAt: null, lastError: null },
    });

    expect(await report(success(hook.id, 0))).toEqual({ disabled: [] });
    expect((await get(room.id, hook.id)).health).toEqual({
      lastSuccessAt: at(0), failingSince: null, consecutiveFailures: 0, lastFailureAt: null, lastError: null,
    });
    // Two failures, each well under the thresholds' 2 s: enabled, failing since the first.
    await report(failures(hook.id, 1, 1_000, 1_000, 'timeout'));
    await report(failures(hook.id, 1, 1_500, 1_500, 'HTTP 502'));
    expect(await get(room.id, hook.id)).toMatchObject({
      enabled: true,
      health: { lastSuccessAt: at(0), failingSince: at(1_000), consecutiveFailures: 2, lastFailureAt: at(1_500), lastError: 'HTTP 502' },
    });
    // A newer success from another replica counts only the failures after it.
    await report({ webhookId: hook.id, lastSuccessAt: at(2_000), failuresAfterSuccess: 1, firstFailureAt: at(2_100), lastFailureAt: at(2_100), lastError: 'connection' });
    expect((await get(room.id, hook.id)).health).toEqual({
      lastSuccessAt: at(2_000), failingSince: at(2_100), consecutiveFailures: 1, lastFailureAt: at(2_100), lastError: 'connection',
    });
    // A report about a webhook deleted since is no error.
    expect(await report(failures(2_000_000_000, 9, 0, 9_000))).toEqual({ disabled: [] });
  });

  it('disables a webhook past both thresholds, tells its room, and stops it at the next registrations version', async () => {
    const room = await createRoom();
    const dead = await register(room.id, 'Dead receiver', 'https://dead.example.com/hook?signed_request=abc');
    const alive = await register(room.id, 'Alive');
    const versionBefore = (await rpc.send(ListRegistrationsV1, {})).version;

    // 3 failures, but over 1.9 s: not yet.
    expect(await report(failures(dead.id, 2, 0, 1_000), success(alive.id, 1_000))).toEqual({ disabled: [] });
    expect(await report(failures(dead.id, 1, 1_900, 1_900))).toEqual({ disabled: [] });
    expect((await get(room.id, dead.id)).enabled).toBe(true);
    // 4 failures over 2.5 s: disabled.
    expect(await report(failures(dead.id, 1, 2_500, 2_500, 'HTTP 500'))).toEqual({ disabled: [dead.id] });

    const got = await get(room.id, dead.id);
    const reason = `every delivery attempt since ${at(0)} has failed (4 failures over 2s; last error: HTTP 500)`;
    expect(got).toMatchObject({
      enabled: false, disabledReason: reason, disabledAt: expect.any(String),
      health: { failingSince: at(0), consecutiveFailures: 4, lastFailureAt: at(2_500), lastError: 'HTTP 500' },
    });
    expect((await get(room.id, alive.id)).enabled).toBe(true);

    // The room's history has the notice, in words, without the URL's credentials or query.
    const notice = (await history(room.id)).find((msg) => msg.type === 'notification');
    expect(notice).toMatchObject({ from: { userId: null, name: 'Webhooks' }, color: 'red', messageFormat: 'text' });
    expect(notice!.message).toBe(`"Dead receiver" (webhook ${dead.id}), which posts to https://dead.example.com/hook, has been disabled: ${reason}. `
      + `No more events are sent to it. Once its receiver works again, enable it with POST /v2/room/${room.id}/webhook/${dead.id}/enable `
      + `(or cli webhook enable ${dead.id}); the events it missed meanwhile are not sent by that.`);
    expect(notice!.message).not.toMatch(/signed_request|abc/);
    // As every notification: an event, which the dispatchers deliver to the room's other webhooks.
    const event = await capture.waitFor(RoomNotificationSentV2.routingKey, (e) => e.payload.room.id === room.id);
    expect(event.payload.message).toMatchObject({ from: 'Webhooks', message: notice!.message, type: 'notification' });
    await capture.waitFor(WebhookRegistrationsChangedV1.routingKey, (e) => e.payload.webhookIds.includes(dead.id));

    // A registration change: a new version, the disabled form in force from it, the enabled one kept for events before.
    const snapshot = await rpc.send(ListRegistrationsV1, {});
    expect(snapshot.version).toBeGreaterThan(versionBefore);
    expect(snapshot.registrations.find((r) => r.id === dead.id)).toMatchObject({ enabled: false, createdVersion: snapshot.version });
    expect(snapshot.removed.filter((r) => r.id === dead.id)).toEqual([expect.objectContaining({ enabled: true, removedVersion: snapshot.version })]);
    // The notice was caused at that version: the disabled webhook does not get it.
    expect(event.registrationsVersion).toBe(snapshot.version);

    // Further failures reported add up; it is not disabled twice.
    expect(await report(failures(dead.id, 2, 3_000, 4_000))).toEqual({ disabled: [] });
    expect((await get(room.id, dead.id)).health.consecutiveFailures).toBe(6);
    expect((await history(room.id)).filter((msg) => msg.type === 'notification')).toHaveLength(1);
  });

  it('disables a bridge at once when its platform said it is gone (disableNow), whatever the thresholds: audited, its room told', async () => {
    const room = await createRoom();
    const { bridge } = await rpc.send(CreateBridgeV1, { actor, room: { id: room.id }, kind: 'slack', url: 'https://hooks.slack.com/services/T0/B0/S3cretPath', name: 'Ops channel' });
    // One failure, well under the thresholds: the platform's word is enough.
    expect(await report({ ...failures(bridge.id, 1, 0, 0, 'HTTP 404'), disableNow: 'Slack: channel_is_archived' })).toEqual({ disabled: [bridge.id] });
    expect((await rpc.send(GetBridgeV1, { actor, room: { id: room.id }, id: bridge.id })).bridge)
      .toMatchObject({ enabled: false, disabledReason: 'Slack: channel_is_archived' });
    const notice = (await history(room.id)).find((msg) => msg.type === 'notification');
    expect(notice!.message).toContain('has been disabled: Slack: channel_is_archived');
    expect(notice!.message).not.toContain('S3cretPath');
    const db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT action, details FROM audit_log WHERE target_id = $1', [bridge.id]);
      expect(rows).toContainEqual({ action: 'bridge.disabled', details: expect.objectContaining({ cause: 'platform', reason: 'Slack: channel_is_archived' }) });
    } finally {
      await db.end();
    }
  });

  it('enables it again: health reset, a registration change; failures from before the reset count no more', async () => {
    const room = await createRoom();
    const hook = await register(room.id, 'Comes back');
    await report(failures(hook.id, 5, 0, 3_000));
    expect((await get(room.id, hook.id)).enabled).toBe(false);
    const version = (await rpc.send(ListRegistrationsV1, {})).version;

    const { webhook } = await rpc.send(EnableWebhookV1, { actor, room: { id: room.id }, webhook: { id: hook.id } });
    expect(webhook).toMatchObject({
      id: hook.id, enabled: true, disabledReason: null, disabledAt: null,
      health: { failingSince: null, consecutiveFailures: 0, lastFailureAt: at(3_000), lastError: 'HTTP 500' },
    });
    expect(await registration(hook.id)).toMatchObject({ enabled: true });
    expect((await rpc.send(ListRegistrationsV1, {})).version).toBeGreaterThan(version);
    await capture.waitFor(WebhookRegistrationsChangedV1.routingKey, (e) => e.payload.webhookIds.includes(hook.id) && (e.registrationsVersion ?? 0) > version);

    // A dispatcher's report of failures from before the reset, arriving late, adds nothing.
    expect(await report(failures(hook.id, 7, 0, 3_500))).toEqual({ disabled: [] });
    expect((await get(room.id, hook.id)).health).toMatchObject({ consecutiveFailures: 0, failingSince: null });
    // Enabling an enabled webhook: the same answer, health reset again, no registration change.
    const now = Date.now();
    await report(failures(hook.id, 1, now - T0, now - T0));
    expect((await get(room.id, hook.id)).health.consecutiveFailures).toBe(1);
    const again = await rpc.send(EnableWebhookV1, { actor, room: { id: room.id }, webhook: { id: hook.id } });
    expect(again.webhook).toMatchObject({ enabled: true, health: { consecutiveFailures: 0, failingSince: null } });
    expect((await rpc.send(ListRegistrationsV1, {})).version).toBe((await rpc.send(ListRegistrationsV1, {})).version);
  });

  it('answers not found, not a failure, when the webhook is deleted while it is being enabled', async () => {
    const room = await createRoom();
    const hook = await register(room.id, 'Deleted meanwhile');
    await report(failures(hook.id, 1, 0, 0));
    const db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      // The deletion holds the webhook's row (and its health row) until it commits.
      await db.query('BEGIN');
      await db.query('DELETE FROM webhooks WHERE id = $1', [hook.id]);
      const enabling = rpc.send(EnableWebhookV1, { actor, room: { id: room.id }, webhook: { id: hook.id } }).then(
        () => 'enabled', (err: { error?: unknown }) => err.error ?? err);
      // The enable read the webhook (the deletion is not committed) and waits for its health row.
      await new Promise((r) => setTimeout(r, 500));
      await db.query('COMMIT');
      expect(await enabling).toMatchObject({ code: 'not_found' });
    } finally {
      await db.end();
    }
  });

  it('takes a report about a webhook deleted meanwhile as about nothing', async () => {
    const room = await createRoom();
    const hook = await register(room.id, 'Reported while deleted');
    const db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      await db.query('BEGIN');
      await db.query('DELETE FROM webhooks WHERE id = $1', [hook.id]);
      const reported = report(failures(hook.id, 5, 0, 3_000)).catch((err: { error?: unknown }) => err.error ?? err);
      await new Promise((r) => setTimeout(r, 500));
      await db.query('COMMIT');
      expect(await reported).toEqual({ disabled: [] });
    } finally {
      await db.end();
    }
  });

  it('refuses to enable a webhook of another room (the access rules of reading it)', async () => {
    const room = await createRoom();
    const other = await createRoom();
    const hook = await register(room.id, 'Elsewhere');
    expect(await rpc.refused(EnableWebhookV1, { actor, room: { id: other.id }, webhook: { id: hook.id } }))
      .toMatchObject({ code: 'not_found', reason: 'webhook_not_found' });
    expect(await rpc.refused(EnableWebhookV1, { operator: true, webhook: { id: 2_000_000_000 } }))
      .toMatchObject({ code: 'not_found', reason: 'webhook_not_found' });
  });

  it('disables a group-wide webhook without a room to tell; the operator enables it by id', async () => {
    // An add-on installed group-wide, as an install writes its webhook (installing is another suite's subject).
    // Written without its installation row (foreign keys off for it).
    const db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    let id: number;
    try {
      await db.query('BEGIN');
      await db.query('SET LOCAL session_replication_role = replica');
      id = (await db.query(`INSERT INTO webhooks (room_id, event, url, secret, installation_id, oauth_client_id)
        VALUES (NULL, 'room_message', 'https://addon.example.com/all', 'addon-secret', 4242, 'oauth-4242') RETURNING id`)).rows[0].id;
      await db.query('COMMIT');
    } finally {
      await db.end();
    }
    const notices = capture.of(RoomNotificationSentV2.routingKey).length;
    expect(await report(failures(id, 3, 0, 2_000))).toEqual({ disabled: [id] });
    const listed = (await rpc.send(ListAllWebhooksV1, {})).webhooks.find((w) => w.id === id);
    expect(listed).toMatchObject({ roomId: null, enabled: false, health: { consecutiveFailures: 3 } });
    expect(capture.of(RoomNotificationSentV2.routingKey)).toHaveLength(notices);

    expect((await rpc.send(EnableWebhookV1, { operator: true, webhook: { id } })).webhook).toMatchObject({ id, enabled: true });
    expect(await registration(id)).toMatchObject({ enabled: true });
  });

  it('lists one room\'s webhooks with their health for the operator', async () => {
    const room = await createRoom();
    const a = await register(room.id, 'A');
    const b = await register(room.id, 'B');
    await report(failures(b.id, 1, 0, 0, 'timeout'));
    const { webhooks } = await rpc.send(ListAllWebhooksV1, { room: { id: room.id } });
    expect(webhooks.map((w) => [w.id, w.name, w.health.consecutiveFailures])).toEqual([[a.id, 'A', 0], [b.id, 'B', 1]]);
    expect(await rpc.refused(ListAllWebhooksV1, { room: { name: 'No such room' } })).toMatchObject({ code: 'not_found', reason: 'room_not_found' });
  });

  it('gives the operator one webhook by id, and none for an id nobody registered', async () => {
    const room = await createRoom();
    await register(room.id, 'Other');
    const wanted = await register(room.id, 'Wanted');
    expect((await rpc.send(ListAllWebhooksV1, { id: wanted.id })).webhooks.map((w) => [w.id, w.name])).toEqual([[wanted.id, 'Wanted']]);
    expect((await rpc.send(ListAllWebhooksV1, { room: { id: room.id }, id: wanted.id })).webhooks.map((w) => w.id)).toEqual([wanted.id]);
    expect((await rpc.send(ListAllWebhooksV1, { id: 2_000_000_000 })).webhooks).toEqual([]);
    expect(await rpc.refused(ListAllWebhooksV1, { id: 0 } as never)).toMatchObject({ code: 'invalid' });
  });

  it('adds a report redelivered with the same command id once', async () => {
    const room = await createRoom();
    const hook = await register(room.id, 'Once');
    const commandId = randomUUID();
    const payload = { reports: [failures(hook.id, 1, 0, 0)] };
    const first = await raw.send(ReportWebhookHealthV1.pattern, payload, { messageId: commandId });
    expect(await raw.send(ReportWebhookHealthV1.pattern, payload, { messageId: commandId })).toEqual(first);
    expect((await get(room.id, hook.id)).health.consecutiveFailures).toBe(1);
  });

  it('refuses a report that is not one, naming the rule', async () => {
    const reply = await raw.send(ReportWebhookHealthV1.pattern, { reports: [{ ...success(1, 0), lastSuccessAt: 'yesterday' }] });
    expect(reply).toMatchObject({ error: { code: 'invalid', field: 'reports', detail: { problem: 'must be an ISO-8601 date-time' } } });
  });

  it('still disables the webhook of an archived room, which takes no notice', async () => {
    const room = await createRoom();
    const hook = await register(room.id, 'Archived');
    await rpc.send(UpdateRoomV1, { actor, room: { id: room.id }, isArchived: true });
    expect(await report(failures(hook.id, 3, 0, 2_000))).toEqual({ disabled: [hook.id] });
    expect((await history(room.id)).filter((msg) => msg.type === 'notification')).toEqual([]);
  });
});
