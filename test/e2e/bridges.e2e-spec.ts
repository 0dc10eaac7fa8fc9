/**
 * Bridges end to end, as each chat platform sees them: the three built services as `npm
 * start` runs them, each bridge made through the v2 API, a v1 `rooms/message` (html and a
 * colour) and a v2 notification with a card sent to its room, and what each platform's
 * stand-in (test/support/platform-receivers.ts, which names the documentation each follows)
 * received read off it: the requests, in order, in the platform's own shape.
 *
 * The stand-ins listen on 127.0.0.2, the only address the system may post to
 * (WEBHOOK_ALLOWED_NETWORKS=127.0.0.2/32), as in webhooks.e2e-spec.ts.
 */
import { BRIDGE_KINDS, type BridgeKind } from '@app/contracts';
import { Client } from 'pg';
import { eventually } from '../support/harness';
import { Answer, v2Call } from '../support/http';
import { cli, startTestSystem, TestSystem } from '../support/processes';
import { PlatformReceivers, ReceivedPost } from '../support/platform-receivers';

const ADMIN_SCOPES = 'admin_group,admin_room,manage_rooms,send_message,send_notification,view_group,view_messages,view_room';
const CARD_TITLE = 'Build 42 deployed';
const MATRIX_TOKEN = 'syt_e2e_bridge_T0ken';

/** What each platform shows of the v1 html notification (from "CI", green) and of the card. */
const EXPECTED: Record<BridgeKind, { notification: (body: any) => void; card: (body: any) => void }> = {
  slack: {
    notification: (b) => expect(b).toMatchObject({ username: 'CI', attachments: [{ color: 'good', text: 'Build *42* passed <https://ci.example.com/42|log>' }] }),
    card: (b) => expect(JSON.stringify(b.attachments)).toContain(CARD_TITLE),
  },
  mattermost: {
    notification: (b) => expect(b).toMatchObject({ username: 'CI', attachments: [{ color: '#36a64f', text: 'Build **42** passed [log](https://ci.example.com/42)' }] }),
    card: (b) => expect(JSON.stringify(b.attachments)).toContain(CARD_TITLE),
  },
  rocketchat: {
    notification: (b) => expect(b).toMatchObject({ alias: 'CI', attachments: [{ color: '#36a64f', text: 'Build **42** passed [log](https://ci.example.com/42)' }] }),
    card: (b) => expect(JSON.stringify(b.attachments)).toContain(CARD_TITLE),
  },
  discord: {
    notification: (b) => expect(b).toMatchObject({ username: 'CI', embeds: [{ color: 0x36a64f, description: 'Build **42** passed [log](https://ci.example.com/42)' }] }),
    card: (b) => expect(b.embeds[0]).toMatchObject({ title: CARD_TITLE }),
  },
  teams: {
    notification: (b) => {
      expect(b).toMatchObject({ type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard', body: [{ style: 'good' }] } }] });
      expect(JSON.stringify(b)).toContain('**CI**');
    },
    card: (b) => expect(JSON.stringify(b.attachments[0].content)).toContain(CARD_TITLE),
  },
  googlechat: {
    notification: (b) => expect(b.text).toContain('*CI*'),
    card: (b) => expect(JSON.stringify(b.cardsV2)).toContain(CARD_TITLE),
  },
  matrix: {
    notification: (b) => expect(b).toMatchObject({
      msgtype: 'm.notice', format: 'org.matrix.custom.html', formatted_body: expect.stringContaining('data-mx-color="#36a64f"'),
    }),
    card: (b) => expect(b.formatted_body).toContain(CARD_TITLE),
  },
};

describe('bridges across the built system: one per platform, posts in its format, in order', () => {
  let stack: TestSystem;
  let platforms: PlatformReceivers;
  let db: Client;
  let adminToken: string;
  let v1Token: string;

  const v2 = (verb: string, path: string, body?: unknown): Promise<Answer> => v2Call(stack.baseUrl, adminToken, verb, path, body);

  beforeAll(async () => {
    stack = await startTestSystem('e2e_bridges', { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.2/32' });
    platforms = await new PlatformReceivers().start('127.0.0.2');
    db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    v1Token = cli(['token', 'create', '--type', 'admin'], stack.env).stdout.trim();
    const email = `bridge.admin-${Date.now()}@example.com`;
    const made = await fetch(`${stack.baseUrl}/v1/users/create`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ auth_token: v1Token, name: 'Bridge Admin', email, is_group_admin: '1' }),
    });
    expect(made.status).toBe(200);
    adminToken = cli(['token', 'create', '--type', 'personal', '--user', email, '--scopes', ADMIN_SCOPES], stack.env).stdout.trim();
  }, 90_000);

  afterAll(async () => {
    await platforms?.stop();
    await db?.end().catch(() => undefined);
    await stack?.stop();
  }, 30_000);

  it.each(BRIDGE_KINDS.map((k) => [k]))('%s: a v1 html notification and a v2 card arrive in order, in the platform\'s shape', async (kind: BridgeKind) => {
    const room = await v2('POST', '/room', { name: `Bridged to ${kind}`, privacy: 'public' });
    expect(room.status).toBe(201);
    const roomId = room.body.id as number;
    const created = await v2('POST', `/room/${roomId}/bridge`, {
      kind, url: platforms.urlOf(kind, `room${roomId}`), name: `${kind} channel`,
      ...(kind === 'matrix' ? { matrix: { room_id: '!e2e:example.org', access_token: MATRIX_TOKEN } } : {}),
    });
    expect(created).toMatchObject({ status: 201, body: { kind, enabled: true } });
    const bridgeId = created.body.id as number;
    // The URL is its credential: the API shows it masked.
    expect(created.body.url).not.toContain(`room${roomId}`);
    const posts = () => platforms.postsTo(kind, `room${roomId}`);

    // Sent after the bridge was made: the event's registrations stamp has the dispatchers match it.
    const sent = await fetch(`${stack.baseUrl}/v1/rooms/message`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        auth_token: v1Token, room_id: String(roomId), from: 'CI', message_format: 'html', color: 'green',
        message: 'Build <b>42</b> passed <a href="https://ci.example.com/42">log</a>',
      }),
    });
    expect(sent.status).toBe(200);
    // The card after the first post: two posts (not one coalesced), in order.
    await eventually(() => expect(posts().length).toBeGreaterThan(0), 10_000);
    const card = await v2('POST', `/room/${roomId}/notification`, {
      message: 'deployed', color: 'purple', from: 'CD',
      card: { style: 'application', id: 'c42', title: CARD_TITLE, description: 'to production', format: 'medium', attributes: [{ label: 'Env', value: { label: 'prod' } }] },
    });
    expect(card.status).toBe(204);

    const got = await eventually(() => {
      const all = posts();
      expect(all.length).toBeGreaterThanOrEqual(2);
      return all;
    }, 15_000);
    const last = got[got.length - 1] as ReceivedPost;
    EXPECTED[kind].notification(got[0].body);
    EXPECTED[kind].card(last.body);
    expect(got[0].at).toBeLessThanOrEqual(last.at);
    if (kind === 'matrix') {
      expect(got.map((p) => [p.method, p.headers.authorization])).toEqual(got.map(() => ['PUT', `Bearer ${MATRIX_TOKEN}`]));
    } else {
      expect(got.every((p) => p.method === 'POST' && p.headers.authorization === undefined)).toBe(true);
    }

    // Recorded as the platform answered, each delivery once.
    await eventually(async () => {
      const { rows } = await db.query(
        `SELECT d.status, a.status AS answered FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id WHERE d.webhook_id = $1 ORDER BY d.lane_position`,
        [bridgeId],
      );
      expect(rows.length).toBeGreaterThanOrEqual(2);
      expect(rows.every((r) => r.status === 'delivered' && r.answered >= 200 && r.answered < 300)).toBe(true);
    }, 5_000);
  }, 60_000);
});
