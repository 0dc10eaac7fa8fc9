/**
 * The v2 operations for the generated bad-input run (test/support/bad-input.ts has the
 * generator, the mutators and the sender): each descriptor is a well-formed call that the
 * mutators then break. Destructive operations aim at rooms and users that do not exist, so
 * that the context's room and user survive the run.
 */
import { BadInputContext, OperationDescriptor, Placement, Rng, TokenKind } from './bad-input';

const PERSONAL: readonly TokenKind[] = ['personal'];
const SENDERS: readonly TokenKind[] = ['personal', 'room'];

/** GET and DELETE carry their parameters in the query string; writes a JSON body (sometimes a form, or the query). */
const v2Placements = (verb: string): readonly Placement[] =>
  (verb === 'GET' || verb === 'DELETE' ? ['query'] : ['json', 'json', 'json', 'form', 'query']);

function v2(name: string, verb: string, path: (ctx: BadInputContext, rng: Rng) => string, params: OperationDescriptor['params'],
  textParams: readonly string[], tokenKinds: readonly TokenKind[] = PERSONAL, weight?: number): OperationDescriptor {
  return { name: `v2 ${verb} ${name}`, verbs: [verb], path, tokenKinds, auth: 'bearer', placements: v2Placements, params, textParams, ...(weight ? { weight } : {}) };
}

const room = (ctx: BadInputContext, rng: Rng) => encodeURIComponent(rng.chance(0.5) ? String(ctx.roomId) : ctx.roomName);
const user = (ctx: BadInputContext, rng: Rng) => encodeURIComponent(rng.chance(0.6) ? String(ctx.userId) : ctx.userEmail);
const victimRoom = (rng: Rng) => `victim-${rng.id(6)}`;
const victimUser = (rng: Rng) => encodeURIComponent(`victim-${rng.id(6)}@example.com`);
const page = (rng: Rng) => ({ 'start-index': String(rng.int(3)), 'max-results': String(rng.pick([1, 10, 100])) });
const readMessageId = (rng: Rng) => rng.pick(['00000000-0000-4000-8000-000000000000', 'nope']);
const COLORS = ['yellow', 'red', 'green', 'purple', 'gray', 'random'];
const EVENTS = ['room_message', 'room_notification', 'room_topic_change', 'room_enter', 'room_exit', 'room_archived'];
/** The context's webhook by id, or one that does not exist. */
const hook = (ctx: BadInputContext, rng: Rng) => `/v2/room/${room(ctx, rng)}/webhook/${rng.chance(0.8) ? ctx.webhookId : rng.pick(['999999', 'nope', '-1'])}`;
const BRIDGE_KINDS = ['slack', 'mattermost', 'discord', 'teams', 'googlechat', 'rocketchat', 'matrix'];
/** A bridge id that names none: the context's webhook's (ids share a sequence), or none at all. */
const bridgeOf = (ctx: BadInputContext, rng: Rng) => `/v2/room/${room(ctx, rng)}/bridge/${rng.pick([String(ctx.webhookId), '999999', 'nope', '-1'])}`;
/** One of its deliveries, or an id of none. */
const delivery = (ctx: BadInputContext, rng: Rng) => (rng.chance(0.7) ? ctx.deliveryId! : rng.pick(['00000000-0000-4000-8000-000000000000', 'nope']));
/** A window of delivery statistics: since within the last 7 days (an offset too), per hour or day, each sometimes left out. */
const statsWindow = (rng: Rng) => ({
  ...(rng.chance(0.7) ? { since: new Date(Date.now() - rng.int(7 * 24) * 3_600_000 - 60_000).toISOString().replace('Z', rng.pick(['Z', '+00:00'])) } : {}),
  ...(rng.chance(0.7) ? { bucket: rng.pick(['hour', 'day']) } : {}),
});
/** A receiver URL the service allows (loopback, WEBHOOK_ALLOWED_NETWORKS), or one it refuses. */
const hookUrl = (rng: Rng) => rng.pick(['http://127.0.0.1:9/hook', 'https://10.1.2.3/internal', 'ftp://example.com/x', 'http://127.0.0.1:9/hook?room=1']);

export const V2_OPERATIONS: readonly OperationDescriptor[] = [
  v2('capabilities', 'GET', () => '/v2/capabilities', () => ({}), []),
  v2('room', 'POST', () => '/v2/room', (_c, rng) => ({ name: `Bad v2 ${rng.id(10)}`, privacy: rng.pick(['public', 'private']), topic: 'Generated' }), ['name', 'topic']),
  v2('room', 'GET', () => '/v2/room', (_c, rng) => ({ ...page(rng), 'include-private': rng.pick(['true', 'false']) }), []),
  v2('room/{room}', 'GET', (c, rng) => `/v2/room/${room(c, rng)}`, () => ({}), []),
  v2('room/{room}', 'PUT', (c, rng) => `/v2/room/${room(c, rng)}`, (_c, rng) => ({ topic: `Topic ${rng.id(4)}`, privacy: 'public' }), ['topic']),
  v2('room/{room}', 'DELETE', (_c, rng) => `/v2/room/${victimRoom(rng)}`, () => ({}), []),
  v2('room/{room}/topic', 'PUT', (c, rng) => `/v2/room/${room(c, rng)}/topic`, (_c, rng) => ({ topic: `Topic ${rng.id(4)}` }), ['topic']),
  v2('room/{room}/message', 'POST', (c, rng) => `/v2/room/${room(c, rng)}/message`,
    (_c, rng) => ({ message: rng.pick(['hello', 'see https://example.com/a.png', 'ping @nobody (allthethings)']) }), ['message']),
  v2('room/{room}/notification', 'POST', (c, rng) => `/v2/room/${room(c, rng)}/notification`, (_c, rng) => ({
    message: rng.pick(['Build <b>42</b> passed', 'deploy done']), color: rng.pick(COLORS), message_format: rng.pick(['text', 'html']), from: 'CI',
  }), ['message', 'from'], SENDERS),
  v2('room/{room}/share/file', 'POST', (c, rng) => `/v2/room/${room(c, rng)}/share/file`, () => ({ message: 'a file' }), ['message'], PERSONAL, 0.5),
  v2('room/{room}/history', 'GET', (c, rng) => `/v2/room/${room(c, rng)}/history`,
    (_c, rng) => ({ ...page(rng), date: rng.pick(['recent', '2024-02-29T10:00:00Z']), timezone: rng.pick(['UTC', 'Europe/Paris']), reverse: rng.pick(['true', 'false']) }),
    ['date', 'timezone']),
  v2('room/{room}/history/latest', 'GET', (c, rng) => `/v2/room/${room(c, rng)}/history/latest`, (_c, rng) => ({ 'max-results': String(rng.pick([1, 75])) }), []),
  v2('room/{room}/history/{message}', 'GET', (c, rng) => `/v2/room/${room(c, rng)}/history/${rng.pick(['00000000-0000-4000-8000-000000000000', 'nope'])}`, () => ({}), []),
  v2('room/{room}/statistics', 'GET', (c, rng) => `/v2/room/${room(c, rng)}/statistics`, () => ({}), []),
  v2('room/{room}/member', 'GET', (c, rng) => `/v2/room/${room(c, rng)}/member`, (_c, rng) => page(rng), []),
  v2('room/{room}/member/{user}', 'PUT', (c, rng) => `/v2/room/${room(c, rng)}/member/${user(c, rng)}`, () => ({}), []),
  v2('room/{room}/member/{user}', 'DELETE', (c, rng) => `/v2/room/${room(c, rng)}/member/${victimUser(rng)}`, () => ({}), []),
  v2('room/{room}/invite/{user}', 'POST', (c, rng) => `/v2/room/${room(c, rng)}/invite/${user(c, rng)}`, () => ({ reason: 'join us' }), ['reason']),
  v2('room/{room}/participant', 'GET', (c, rng) => `/v2/room/${room(c, rng)}/participant`, (_c, rng) => page(rng), []),
  v2('room/{room}/participant/{user}', 'PUT', (c, rng) => `/v2/room/${room(c, rng)}/participant/${user(c, rng)}`, () => ({}), []),
  v2('room/{room}/participant/{user}', 'DELETE', (c, rng) => `/v2/room/${room(c, rng)}/participant/${user(c, rng)}`, () => ({}), []),
  // Half weight: each user it creates costs an scrypt hash of the generated password.
  v2('user', 'POST', () => '/v2/user', (_c, rng) => ({ name: `Gen ${rng.id(4)}`, email: `gen-${rng.id(10)}@example.com`, title: 'Tester' }), ['name', 'email', 'title'], PERSONAL, 0.5),
  v2('user', 'GET', () => '/v2/user', (_c, rng) => ({ ...page(rng), 'include-deleted': rng.pick(['true', 'false']) }), []),
  v2('user/{user}', 'GET', (c, rng) => `/v2/user/${user(c, rng)}`, () => ({}), []),
  v2('user/{user}', 'PUT', (c) => `/v2/user/${c.userId}`, (c, rng) => ({ name: `Target ${rng.id(3)}`, email: c.userEmail, title: rng.pick(['Ops', 'Dev']) }), ['name', 'title']),
  v2('user/{user}', 'DELETE', (_c, rng) => `/v2/user/${victimUser(rng)}`, () => ({}), []),
  v2('user/{user}/invitation', 'POST', (c, rng) => `/v2/user/${rng.chance(0.7) ? user(c, rng) : victimUser(rng)}/invitation`, () => ({}), []),
  v2('user/{user}/holdings', 'GET', (c, rng) => `/v2/user/${rng.chance(0.7) ? user(c, rng) : victimUser(rng)}/holdings`, () => ({}), []),
  // Half weight: each try hashes its password (scrypt). A link of none: 404 when the password keeps the rule, 400 naming it when not.
  v2('invitation/{token}', 'POST', (_c, rng) => `/v2/invitation/${rng.pick(['nope', 'A'.repeat(40), 'x'.repeat(99)])}`, (_c, rng) => ({ password: `pw-${rng.id(12)}` }), ['password'], PERSONAL, 0.5),
  v2('user/{user}/message', 'POST', (c, rng) => `/v2/user/${user(c, rng)}/message`, () => ({ message: 'psst' }), ['message']),
  // Read markers and the chats list (our extension): a message id of none, or no id at all, is a 400 naming message_id.
  v2('room/{room}/read', 'PUT', (c, rng) => `/v2/room/${room(c, rng)}/read`, (_c, rng) => ({ message_id: readMessageId(rng) }), ['message_id']),
  v2('user/{user}/read', 'PUT', (c, rng) => `/v2/user/${user(c, rng)}/read`, (_c, rng) => ({ message_id: readMessageId(rng) }), ['message_id']),
  v2('user/{user}/chats', 'GET', (c, rng) => `/v2/user/${user(c, rng)}/chats`, () => ({}), []),
  v2('user/{user}/history/latest', 'GET', (c, rng) => `/v2/user/${user(c, rng)}/history/latest`, (_c, rng) => ({ 'max-results': String(rng.pick([1, 75])) }), []),
  // A person's live stream (no resume: nothing to read from the query); accepted, its status is the outcome.
  v2('user/{user}/events', 'GET', (c, rng) => `/v2/user/${user(c, rng)}/events`, () => ({}), []),
  // Webhooks and the delivery log (our extensions), on the context's webhook; creations and deletions on throwaway ones.
  v2('room/{room}/webhook', 'POST', (c, rng) => `/v2/room/${room(c, rng)}/webhook`, (_c, rng) => ({
    url: hookUrl(rng), event: rng.pick(EVENTS), name: `Gen ${rng.id(4)}`, ...(rng.chance(0.3) ? { pattern: rng.pick(['^deploy', '(a+)+$', 'x{2,}']) } : {}),
    ...(rng.chance(0.3) ? { authentication: rng.pick(['jwt', 'none']) } : {}), ...(rng.chance(0.3) ? { delivery: rng.pick(['ordered', 'concurrent']) } : {}),
  }), ['url', 'name', 'pattern'], PERSONAL, 0.5),
  v2('room/{room}/webhook', 'GET', (c, rng) => `/v2/room/${room(c, rng)}/webhook`, (_c, rng) => page(rng), []),
  v2('room/{room}/webhook/{id}', 'GET', (c, rng) => hook(c, rng), () => ({}), []),
  v2('room/{room}/webhook/{id}', 'DELETE', (c, rng) => `/v2/room/${room(c, rng)}/webhook/${rng.pick(['999999', 'nope'])}`, () => ({}), []),
  v2('room/{room}/webhook/{id}/enable', 'POST', (c, rng) => `${hook(c, rng)}/enable`, () => ({}), []),
  v2('room/{room}/extension/webhook/{key}', 'PUT', (c, rng) => `/v2/room/${room(c, rng)}/extension/webhook/${rng.pick([c.webhookKey!, `gen-${rng.id(6)}`])}`,
    (_c, rng) => ({ url: hookUrl(rng), event: rng.pick(EVENTS), name: `Keyed ${rng.id(4)}` }), ['url', 'name'], PERSONAL, 0.5),
  v2('room/{room}/extension/webhook/{key}', 'GET', (c, rng) => `/v2/room/${room(c, rng)}/extension/webhook/${c.webhookKey}`, () => ({}), []),
  v2('room/{room}/webhook/{id}/delivery', 'GET', (c, rng) => `${hook(c, rng)}/delivery`, (_c, rng) => ({
    ...page(rng), ...(rng.chance(0.5) ? { status: rng.pick(['failed', 'delivered', 'retrying']) } : {}),
    ...(rng.chance(0.5) ? { event: rng.pick(EVENTS) } : {}), ...(rng.chance(0.5) ? { since: rng.pick(['2024-02-29T10:00:00Z', '2024-02-29T10:00:00+02:00']) } : {}),
  }), ['status', 'event', 'since']),
  v2('room/{room}/webhook/{id}/delivery/{delivery}', 'GET', (c, rng) => `${hook(c, rng)}/delivery/${delivery(c, rng)}`, () => ({}), []),
  v2('room/{room}/webhook/{id}/delivery-stats', 'GET', (c, rng) => `${hook(c, rng)}/delivery-stats`, (_c, rng) => statsWindow(rng), ['since', 'bucket']),
  v2('room/{room}/webhook/{id}/delivery/{delivery}/redeliver', 'POST', (c, rng) => `${hook(c, rng)}/delivery/${delivery(c, rng)}/redeliver`, () => ({}), [], PERSONAL, 0.5),
  v2('room/{room}/webhook/{id}/recover', 'POST', (c, rng) => `${hook(c, rng)}/recover`, (_c, rng) => ({ since: rng.pick(['2024-02-29T10:00:00Z', '2030-01-01T00:00:00Z']) }), ['since'], PERSONAL, 0.5),
  v2('room/{room}/extension/webhook/{key}', 'DELETE', (c, rng) => `/v2/room/${room(c, rng)}/extension/webhook/gen-${rng.id(6)}`, () => ({}), []),
  // Bridges (our extension): a webhook's id names no bridge; creations reach the room's limit of bridges and are refused (400) from there.
  v2('room/{room}/bridge', 'POST', (c, rng) => `/v2/room/${room(c, rng)}/bridge`, (_c, rng) => ({
    kind: rng.pick(BRIDGE_KINDS), url: hookUrl(rng), events: rng.pick(EVENTS), name: `Bridge ${rng.id(4)}`,
  }), ['name', 'url'], PERSONAL, 0.5),
  v2('room/{room}/bridge', 'GET', (c, rng) => `/v2/room/${room(c, rng)}/bridge`, (_c, rng) => page(rng), []),
  v2('room/{room}/bridge/{id}', 'GET', (c, rng) => bridgeOf(c, rng), () => ({}), []),
  v2('room/{room}/bridge/{id}', 'PUT', (c, rng) => bridgeOf(c, rng), (_c, rng) => ({ kind: rng.pick(BRIDGE_KINDS), url: hookUrl(rng), name: 'Bridge' }), ['name', 'url']),
  v2('room/{room}/bridge/{id}', 'DELETE', (c, rng) => bridgeOf(c, rng), () => ({}), []),
  v2('room/{room}/bridge/{id}/enable', 'POST', (c, rng) => `${bridgeOf(c, rng)}/enable`, () => ({}), []),
  v2('room/{room}/bridge/{id}/test', 'POST', (c, rng) => `${bridgeOf(c, rng)}/test`, () => ({}), [], PERSONAL, 0.5),
  v2('room/{room}/bridge/{id}/delivery', 'GET', (c, rng) => `${bridgeOf(c, rng)}/delivery`, (_c, rng) => ({
    ...page(rng), ...(rng.chance(0.5) ? { status: rng.pick(['failed', 'delivered', 'retrying']) } : {}),
    ...(rng.chance(0.5) ? { event: rng.pick(EVENTS) } : {}), ...(rng.chance(0.5) ? { since: rng.pick(['2024-02-29T10:00:00Z', '2024-02-29T10:00:00+02:00']) } : {}),
  }), ['status', 'event', 'since']),
  v2('room/{room}/bridge/{id}/delivery/{delivery}', 'GET', (c, rng) => `${bridgeOf(c, rng)}/delivery/${delivery(c, rng)}`, () => ({}), []),
  v2('room/{room}/bridge/{id}/delivery-stats', 'GET', (c, rng) => `${bridgeOf(c, rng)}/delivery-stats`, (_c, rng) => statsWindow(rng), ['since', 'bucket']),
  v2('room/{room}/bridge/{id}/delivery/{delivery}/redeliver', 'POST', (c, rng) => `${bridgeOf(c, rng)}/delivery/${delivery(c, rng)}/redeliver`, () => ({}), [], PERSONAL, 0.5),
  v2('room/{room}/bridge/{id}/recover', 'POST', (c, rng) => `${bridgeOf(c, rng)}/recover`, (_c, rng) => ({ since: rng.pick(['2024-02-29T10:00:00Z', '2030-01-01T00:00:00Z']) }), ['since'], PERSONAL, 0.5),
  // A bridged channel's posts: the context's bridge's key mostly (posts that pass reach the room), else keys of none.
  v2('bridge/inbound/{key}', 'POST', (c, rng) => `/v2/bridge/inbound/${rng.chance(0.8) && c.inboundKey ? c.inboundKey : rng.pick(['nope', 'A'.repeat(43)])}`,
    (_c, rng) => ({ text: rng.pick(['hello from Mattermost', 'ping @nobody']), user_name: 'grace', channel_name: 'town-square', trigger_word: '' }), ['text', 'user_name'], PERSONAL, 0.5),
  // The live stream: a well-formed request is answered with the stream (its status is the outcome), a bad one with JSON.
  v2('room/{room}/events', 'GET', (c, rng) => `/v2/room/${room(c, rng)}/events`,
    (_c, rng): Record<string, string> => (rng.chance(0.5) ? { last_event_id: rng.pick(['1', '0', '99999999', 'nope', '-1']) } : {}), ['last_event_id']),
  // Add-ons: installed only from descriptors that cannot be fetched (a closed port, a refused network or scheme), uninstalled only when they do not exist.
  v2('addons', 'GET', () => '/v2/addons', (_c, rng) => page(rng), []),
  v2('addons', 'POST', () => '/v2/addons', (c, rng) => ({ url: rng.pick(['http://127.0.0.1:9/descriptor.json', 'https://10.1.2.3/addon', 'ftp://example.com/d']), ...(rng.chance(0.5) ? { room: String(c.roomId) } : {}) }),
    ['url'], PERSONAL, 0.5),
  v2('addons/{id}', 'GET', (_c, rng) => `/v2/addons/${rng.pick(['999999', 'nope', '-1'])}`, () => ({}), []),
  v2('addons/{id}', 'DELETE', (_c, rng) => `/v2/addons/${rng.pick(['999999', 'nope', '-1'])}`, () => ({}), []),
  // OAuth client tokens (an add-on's): a bearer token is not its Basic credentials, so these are refused, their body read first.
  v2('oauth/token', 'POST', () => '/v2/oauth/token', (_c, rng) => ({ grant_type: rng.pick(['client_credentials', 'personal']), scope: rng.pick(['send_notification', 'view_room admin_room']) }),
    ['grant_type', 'scope'], PERSONAL, 0.5),
  // Console sessions: a sign-in of a person who does not exist (nothing is throttled that the run needs); who is signed in; a sign-out (it acts on the cookie only).
  v2('session', 'POST', () => '/v2/session', (_c, rng) => ({ email: `nobody-${rng.id(6)}@example.com`, password: `wrong ${rng.id(8)}` }), ['email', 'password'], PERSONAL, 0.5),
  v2('session', 'GET', () => '/v2/session', () => ({}), []),
  v2('session', 'DELETE', () => '/v2/session', () => ({}), []),
  // Tokens (our extension): made, listed, and revoked only when they do not exist.
  v2('token', 'POST', () => '/v2/token', (_c, rng) => ({ label: `Gen ${rng.id(4)}` }), ['label'], PERSONAL, 0.5),
  v2('token', 'GET', () => '/v2/token', (_c, rng) => page(rng), []),
  v2('token/{id}', 'DELETE', (_c, rng) => `/v2/token/${rng.pick(['999999', 'nope', '-1'])}`, () => ({}), []),
  // The audit log (our extension; the context's personal token is a group admin's).
  v2('audit', 'GET', () => '/v2/audit', (c, rng) => ({
    ...page(rng), ...(rng.chance(0.4) ? { actor: rng.pick([String(c.userId), c.userEmail, '@nobody-here']) } : {}),
    ...(rng.chance(0.4) ? { action: rng.pick(['user.invited', 'room.deleted', 'token.created']) } : {}),
    ...(rng.chance(0.4) ? { room: String(c.roomId) } : {}),
    ...(rng.chance(0.4) ? { since: rng.pick(['2024-02-29T10:00:00Z', '2024-02-29']) } : {}),
    ...(rng.chance(0.4) ? { until: rng.pick(['2030-01-01T00:00:00+02:00', '2030-01-01']) } : {}),
  }), ['actor', 'action', 'since', 'until']),
  v2('emoticon', 'GET', () => '/v2/emoticon', (_c, rng) => ({ ...page(rng), type: rng.pick(['all', 'global', 'group']) }), ['type']),
  v2('emoticon/{key}', 'GET', (_c, rng) => `/v2/emoticon/${rng.pick(['1', 'allthethings', '(allthethings)', 'nope'])}`, () => ({}), []),
];
