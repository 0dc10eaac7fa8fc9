/**
 * Who may do what: the service's one access model. Every operation of the v1 and v2 APIs
 * (and the file links) has a row here saying which kinds of actor may call it; the OpenAPI
 * document and docs/access.md are generated from it, and the access-matrix test checks each
 * row against the running system, so a route cannot ship without its rule and the rule
 * cannot drift from what the service does.
 *
 * The rules, in words (HipChat's, made strict where it was silent):
 * - A private room is seen and used by its members, its owner and group admins only; to
 *   anyone else it does not exist (404, never naming it).
 * - A room is administered (renamed, made private or public, given away, archived, deleted)
 *   by its owner and group admins; the membership of a private room likewise.
 * - Moving someone else in or out of a room is for the owner and group admins; anyone may
 *   enter or leave themselves.
 * - A webhook is its creator's (a user, or an add-on installation), the room owner's and
 *   group admins' to see and change; to anyone else it does not exist (404). A bridge is kept
 *   as a webhook and follows the same rule.
 * - A token confined to a room (a room token, an add-on installed in one room) acts in that
 *   room only: never on another room, never on the group (creating rooms, users, tokens).
 * - v1 admin tokens may call every v1 method; v1 notification tokens only rooms/message and
 *   rooms/topic. v1 tokens are not accepted by v2, nor v2 tokens by v1 (401).
 */

/** The kinds of actor the model speaks of. */
export const PRINCIPALS = [
  'group_admin', 'room_owner', 'member', 'user', 'creator', 'room_token', 'addon', 'addon_in_room', 'v1_admin', 'v1_notification',
] as const;
export type Principal = (typeof PRINCIPALS)[number];

export const PRINCIPAL_TEXT: Record<Principal, string> = {
  group_admin: 'Group admin (a user with is_group_admin, by personal token or console session)',
  room_owner: 'The room\'s owner',
  member: 'A member of the room (private rooms: room_members)',
  user: 'Any other user (in a private room: not a member)',
  creator: 'The creator of the webhook (the user, or the add-on installation, that registered it)',
  room_token: 'A v2 room token, in its own room (in any other room: refused, 403)',
  addon: 'An add-on\'s token, installed group-wide (acts without a user)',
  addon_in_room: 'An add-on\'s token, installed in one room, in that room (any other room: refused, 403)',
  v1_admin: 'A v1 admin token',
  v1_notification: 'A v1 notification token',
};

/**
 * What a principal may do with an operation:
 * - `yes`: always (the route's scopes still apply to tokens);
 * - `no`: never (403; 404 where the room or webhook is hidden from them);
 * - `public`: in public rooms; in a private room the room is hidden from them (404);
 * - `self`: on themselves only (the `{user}` of the path is the actor);
 * - `own`: what they created (a webhook); anyone else's is hidden from them (404).
 */
export type Allowance = 'yes' | 'no' | 'public' | 'self' | 'own';

/**
 * Who a route is for, beside the actors: no token at all, a sign-in of its own, or (`link`)
 * anyone holding the link in a public room and the actors of `may` in a private one.
 */
export type Audience = 'actors' | 'public' | 'session' | 'link';

export interface AccessRule {
  /** `GET /v2/room/{room}`, `v1 rooms/message` (any verb it takes), `GET /files/{path}`. */
  operation: string;
  /** Who it is for; `public` and `session` rows need no `may`. */
  audience?: Audience;
  /** Per principal; a principal left out is `no`. */
  may: Partial<Record<Principal, Allowance>>;
  /** Said in docs/access.md and the OpenAPI document after the table's words. */
  note?: string;
}

const ALL_USERS = { group_admin: 'yes', room_owner: 'yes', member: 'yes', user: 'yes', creator: 'yes' } as const;
/** Users, subject to the private-room rule. */
const SEERS = { group_admin: 'yes', room_owner: 'yes', member: 'yes', creator: 'yes', user: 'public' } as const;
const ADDONS = { addon: 'yes', addon_in_room: 'yes' } as const;
/** Owner and group admins (and add-ons, which act without a user and keep to their room). */
const ADMINISTRATORS = { group_admin: 'yes', room_owner: 'yes', ...ADDONS } as const;
/** The webhook's creator, the room's owner and group admins. */
const WEBHOOK_KEEPERS = { group_admin: 'yes', room_owner: 'yes', creator: 'own', member: 'own', user: 'own', addon: 'own', addon_in_room: 'own' } as const;
/** Keys are each creator's own: anyone else's key does not exist for them. */
const KEY_HOLDERS = { group_admin: 'own', room_owner: 'own', creator: 'own', member: 'own', user: 'own', addon: 'own', addon_in_room: 'own' } as const;
/** The group's administration: group admins, and add-ons a group admin installed group-wide with admin_group. */
const GROUP_ADMINS = { group_admin: 'yes', addon: 'yes' } as const;
const V1_ADMIN = { v1_admin: 'yes' } as const;
/** A leaked token without admin_group must not mint more tokens: the console's session may, whatever its scopes. */
const TOKENS_NOTE = 'Any user through their console session (their own tokens); a token only with admin_group.';
const V1_SENDERS = { v1_admin: 'yes', v1_notification: 'yes' } as const;

export const ACCESS_MODEL: readonly AccessRule[] = [
  // The service's own documents and sign-in.
  { operation: 'GET /v2/capabilities', audience: 'public', may: {}, note: 'No token needed; an empty one is ignored.' },
  { operation: 'POST /v2/oauth/token', audience: 'public', may: {}, note: 'An add-on\'s OAuth client credentials (HTTP Basic).' },
  { operation: 'POST /v2/session', audience: 'session', may: {}, note: 'Signs a user in with e-mail and password; throttled per account and address.' },
  { operation: 'GET /v2/session', audience: 'session', may: {}, note: 'The signed-in session\'s own user.' },
  { operation: 'DELETE /v2/session', audience: 'session', may: {}, note: 'Signs the session out.' },
  { operation: 'POST /v2/invitation/{token}', audience: 'public', may: {}, note: 'An invited person chooses their password and is signed in: the link\'s secret is the credential (used once, 7 days); throttled as sign-ins are. An unknown, used and expired link answer the same 404.' },

  // Rooms.
  { operation: 'GET /v2/room', may: { ...ALL_USERS, ...ADDONS }, note: 'Lists only the rooms the actor may see.' },
  { operation: 'POST /v2/room', may: { ...ALL_USERS, addon: 'yes' }, note: 'Not by a token confined to a room.' },
  { operation: 'GET /v2/room/{room}', may: { ...SEERS, ...ADDONS } },
  { operation: 'PUT /v2/room/{room}', may: { ...ADMINISTRATORS }, note: 'A PUT that changes only the topic is for whoever may see the room, as PUT …/topic.' },
  { operation: 'DELETE /v2/room/{room}', may: { ...ADMINISTRATORS } },
  { operation: 'PUT /v2/room/{room}/topic', may: { ...SEERS, ...ADDONS } },
  { operation: 'GET /v2/room/{room}/statistics', may: { ...SEERS, ...ADDONS } },

  // Messages, history, files, the live stream.
  { operation: 'POST /v2/room/{room}/message', may: { ...SEERS } },
  { operation: 'POST /v2/room/{room}/notification', may: { ...SEERS, room_token: 'yes', ...ADDONS } },
  { operation: 'POST /v2/room/{room}/share/file', may: { ...SEERS } },
  { operation: 'GET /v2/room/{room}/history', may: { ...SEERS, ...ADDONS } },
  { operation: 'GET /v2/room/{room}/history/latest', may: { ...SEERS, ...ADDONS } },
  { operation: 'GET /v2/room/{room}/history/{message}', may: { ...SEERS, ...ADDONS } },
  { operation: 'GET /v2/room/{room}/events', may: { ...SEERS, ...ADDONS }, note: 'Ends within a second of the reader losing access.' },
  { operation: 'PUT /v2/room/{room}/read', may: { ...SEERS }, note: 'Our extension: what the acting user has read, kept per user; a token of no user (room token, add-on) has nothing to mark.' },
  { operation: 'GET /files/{path}', audience: 'link', may: { ...SEERS, ...ADDONS, v1_admin: 'yes' }, note: 'Public rooms: anyone holding the unguessable link. Private rooms: a credential of someone who may read the room\'s history (a v2 token with view_messages, a console session, a v1 admin token), or a signed link (webhooks\' and bridges\' `room_file_upload`) until it expires or anyone loses access to the room, whichever comes first; to anyone else the file does not exist (404; 401 without credentials, or to a revoked link).' },

  // Members and participants.
  { operation: 'GET /v2/room/{room}/member', may: { ...SEERS, ...ADDONS } },
  { operation: 'PUT /v2/room/{room}/member/{user}', may: { ...ADMINISTRATORS }, note: 'Private rooms only.' },
  { operation: 'DELETE /v2/room/{room}/member/{user}', may: { ...ADMINISTRATORS }, note: 'The owner is never removed from their own room.' },
  { operation: 'POST /v2/room/{room}/invite/{user}', may: { ...ADMINISTRATORS } },
  { operation: 'GET /v2/room/{room}/participant', may: { ...SEERS, ...ADDONS } },
  { operation: 'PUT /v2/room/{room}/participant/{user}', may: { group_admin: 'yes', room_owner: 'yes', member: 'self', creator: 'self', user: 'self', ...ADDONS }, note: 'Anyone may enter themselves (a private room: its members); someone else is moved in by the owner and group admins only.' },
  { operation: 'DELETE /v2/room/{room}/participant/{user}', may: { group_admin: 'yes', room_owner: 'yes', member: 'self', creator: 'self', user: 'self', ...ADDONS }, note: 'Anyone may leave; someone else is moved out by the owner and group admins only.' },

  // Webhooks and their delivery logs.
  { operation: 'POST /v2/room/{room}/webhook', may: { ...SEERS, ...ADDONS }, note: 'The new webhook is its creator\'s (the user, or the add-on installation).' },
  { operation: 'GET /v2/room/{room}/webhook', may: { ...SEERS, ...ADDONS }, note: 'Shows the actor the webhooks they may keep: all of them to the owner and group admins, their own to anyone else; URLs with the query masked but to their creator.' },
  { operation: 'GET /v2/room/{room}/webhook/{id}', may: { ...WEBHOOK_KEEPERS }, note: 'The URL\'s query is masked but to its creator.' },
  { operation: 'DELETE /v2/room/{room}/webhook/{id}', may: { ...WEBHOOK_KEEPERS } },
  { operation: 'POST /v2/room/{room}/webhook/{id}/enable', may: { ...WEBHOOK_KEEPERS }, note: 'A webhook disabled because its creator lost access is enabled again only once its creator may read the room again (400 before).' },
  { operation: 'GET /v2/room/{room}/webhook/{id}/delivery', may: { ...WEBHOOK_KEEPERS } },
  { operation: 'GET /v2/room/{room}/webhook/{id}/delivery/{delivery}', may: { ...WEBHOOK_KEEPERS }, note: 'The request\'s URL has its query masked to everyone, its creator included (add-on frameworks put their tokens there).' },
  { operation: 'GET /v2/room/{room}/webhook/{id}/delivery-stats', may: { ...WEBHOOK_KEEPERS } },
  { operation: 'POST /v2/room/{room}/webhook/{id}/delivery/{delivery}/redeliver', may: { ...WEBHOOK_KEEPERS } },
  { operation: 'POST /v2/room/{room}/webhook/{id}/recover', may: { ...WEBHOOK_KEEPERS } },
  { operation: 'PUT /v2/room/{room}/extension/webhook/{key}', may: { ...SEERS, ...ADDONS }, note: 'Keys are the creator\'s own: another actor\'s PUT of the same key makes a webhook of their own.' },
  { operation: 'GET /v2/room/{room}/extension/webhook/{key}', may: { ...KEY_HOLDERS }, note: 'A key names the actor\'s own webhook; the owner and group admins reach anyone\'s by its id.' },
  { operation: 'DELETE /v2/room/{room}/extension/webhook/{key}', may: { ...KEY_HOLDERS }, note: 'A key names the actor\'s own webhook; the owner and group admins reach anyone\'s by its id.' },

  // Bridges to chat platforms (our extension): kept as webhooks are, under the webhook rule.
  { operation: 'POST /v2/room/{room}/bridge', may: { ...SEERS, ...ADDONS }, note: 'The new bridge is its creator\'s (the user, or the add-on installation), as a webhook is.' },
  { operation: 'GET /v2/room/{room}/bridge', may: { ...SEERS, ...ADDONS }, note: 'Shows the actor the bridges they may keep: all of them to the owner and group admins, their own to anyone else.' },
  { operation: 'GET /v2/room/{room}/bridge/{id}', may: { ...WEBHOOK_KEEPERS } },
  { operation: 'PUT /v2/room/{room}/bridge/{id}', may: { ...WEBHOOK_KEEPERS } },
  { operation: 'DELETE /v2/room/{room}/bridge/{id}', may: { ...WEBHOOK_KEEPERS } },
  { operation: 'POST /v2/room/{room}/bridge/{id}/enable', may: { ...WEBHOOK_KEEPERS }, note: 'As a webhook: one disabled because its creator lost access is enabled again only once its creator may read the room again (400 before).' },
  { operation: 'POST /v2/room/{room}/bridge/{id}/test', may: { ...WEBHOOK_KEEPERS } },
  { operation: 'GET /v2/room/{room}/bridge/{id}/delivery', may: { ...WEBHOOK_KEEPERS } },
  { operation: 'GET /v2/room/{room}/bridge/{id}/delivery/{delivery}', may: { ...WEBHOOK_KEEPERS }, note: 'The request\'s URL is masked to everyone, its creator included (the path of a platform\'s URL is its credential).' },
  { operation: 'GET /v2/room/{room}/bridge/{id}/delivery-stats', may: { ...WEBHOOK_KEEPERS } },
  { operation: 'POST /v2/room/{room}/bridge/{id}/delivery/{delivery}/redeliver', may: { ...WEBHOOK_KEEPERS } },
  { operation: 'POST /v2/room/{room}/bridge/{id}/recover', may: { ...WEBHOOK_KEEPERS } },
  { operation: 'POST /v2/bridge/inbound/{key}', audience: 'public', may: {}, note: 'A bridged channel\'s posts (the platform\'s outgoing webhook): the key of the bridge\'s inbound URL, shown once, is the credential, with the bridge\'s token or Teams\' HMAC when it has one. An unknown key, a disabled bridge and a disabled inbound answer the same 404.' },

  // Users and private chat.
  { operation: 'GET /v2/user', may: { ...ALL_USERS, ...ADDONS } },
  { operation: 'POST /v2/user', may: { ...GROUP_ADMINS } },
  { operation: 'GET /v2/user/{user}', may: { ...ALL_USERS, addon: 'yes' }, note: 'A user\'s record (e-mail, presence) is not for a token confined to a room; GET /v2/user lists names only.' },
  { operation: 'PUT /v2/user/{user}', may: { ...GROUP_ADMINS } },
  { operation: 'DELETE /v2/user/{user}', may: { ...GROUP_ADMINS } },
  { operation: 'POST /v2/user/{user}/invitation', may: { ...GROUP_ADMINS }, note: 'A link for the person to choose their own password (POST /v2/invitation/{token}); a new one replaces the last.' },
  { operation: 'GET /v2/user/{user}/holdings', may: { group_admin: 'yes', room_owner: 'self', member: 'self', user: 'self', creator: 'self' }, note: 'What deleting or demoting the user would take: for group admins, and the user themself.' },
  { operation: 'POST /v2/user/{user}/message', may: { ...ALL_USERS }, note: 'A private message from the acting user.' },
  { operation: 'GET /v2/user/{user}/history/latest', may: { ...ALL_USERS }, note: 'The acting user\'s own conversation with that user.' },
  { operation: 'PUT /v2/user/{user}/read', may: { ...ALL_USERS }, note: 'Our extension: marks the acting user\'s own private chat with that user read.' },
  { operation: 'GET /v2/user/{user}/chats', may: { group_admin: 'self', user: 'self' }, note: 'Our extension: a person\'s chats and unread counts are their own, group admins\' included.' },
  { operation: 'GET /v2/user/{user}/events', may: { group_admin: 'self', user: 'self' }, note: 'Our extension: the person\'s own live stream (their rooms\' messages and their private messages); it stops carrying a room as soon as they lose access to it.' },
  { operation: 'GET /v2/emoticon', may: { ...ALL_USERS, ...ADDONS } },
  { operation: 'GET /v2/emoticon/{key}', may: { ...ALL_USERS, ...ADDONS } },

  // Tokens and add-ons.
  { operation: 'GET /v2/token', may: { group_admin: 'yes' }, note: TOKENS_NOTE },
  { operation: 'POST /v2/token', may: { group_admin: 'yes' }, note: `${TOKENS_NOTE} Only a group admin makes admin_group tokens.` },
  { operation: 'DELETE /v2/token/{id}', may: { group_admin: 'yes' }, note: TOKENS_NOTE },
  { operation: 'GET /v2/addons', may: { ...GROUP_ADMINS } },
  { operation: 'POST /v2/addons', may: { ...GROUP_ADMINS } },
  { operation: 'GET /v2/addons/{id}', may: { ...GROUP_ADMINS } },
  { operation: 'DELETE /v2/addons/{id}', may: { ...GROUP_ADMINS } },

  // The audit log.
  { operation: 'GET /v2/audit', may: { group_admin: 'yes' }, note: 'Group admins only (scope admin_group): who changed access, newest first.' },

  // Version 1.
  { operation: 'v1 rooms/create', may: { ...V1_ADMIN } },
  { operation: 'v1 rooms/delete', may: { ...V1_ADMIN } },
  { operation: 'v1 rooms/history', may: { ...V1_ADMIN } },
  { operation: 'v1 rooms/list', may: { ...V1_ADMIN } },
  { operation: 'v1 rooms/message', may: { ...V1_SENDERS } },
  { operation: 'v1 rooms/show', may: { ...V1_ADMIN } },
  { operation: 'v1 rooms/topic', may: { ...V1_SENDERS } },
  { operation: 'v1 users/create', may: { ...V1_ADMIN } },
  { operation: 'v1 users/delete', may: { ...V1_ADMIN } },
  { operation: 'v1 users/list', may: { ...V1_ADMIN } },
  { operation: 'v1 users/show', may: { ...V1_ADMIN } },
  { operation: 'v1 users/undelete', may: { ...V1_ADMIN } },
  { operation: 'v1 users/update', may: { ...V1_ADMIN } },
];

const BY_OPERATION = new Map(ACCESS_MODEL.map((r) => [r.operation, r]));

/** The rule of an operation (`GET /v2/room/{room}`, `v1 rooms/list`), or undefined when it has none. */
export function accessRuleOf(operation: string): AccessRule | undefined {
  return BY_OPERATION.get(operation);
}

export function allowanceOf(rule: AccessRule, principal: Principal): Allowance {
  return rule.may[principal] ?? 'no';
}

/** Whether the operation names a room (its private-room rule applies). */
export const isRoomOperation = (operation: string) => operation.includes('/{room}') || operation === 'GET /files/{path}';

/** The situation a matrix cell puts the principal in. */
export interface Situation {
  privacy: 'public' | 'private';
  /** For `self` rows: the `{user}` of the path is the actor. */
  onThemselves?: boolean;
  /** For `own` rows: the principal created the thing acted on. */
  isCreator?: boolean;
}

/** Allowed, or the refusal's kind: `hidden` (404: the room or the webhook does not exist for them) or `forbidden` (403). */
export type Decision = 'allowed' | 'hidden' | 'forbidden';

/**
 * The model's answer for one principal in one situation. A principal who may not see a
 * private room is told it does not exist whatever the operation; one who may see the room but
 * not a webhook in it is told the webhook does not exist.
 */
export function decide(rule: AccessRule, principal: Principal, s: Situation): Decision {
  if (rule.audience === 'public' || rule.audience === 'session') return 'allowed';
  if (rule.audience === 'link') {
    // A link names nothing but itself: a refusal says only that there is no such file.
    if (s.privacy === 'public') return 'allowed';
    return allowanceOf(rule, principal) === 'yes' ? 'allowed' : 'hidden';
  }
  const roomScoped = isRoomOperation(rule.operation);
  const seesRoom = !roomScoped || s.privacy === 'public' || !['user'].includes(principal);
  if (roomScoped && principal === 'user' && !seesRoom) return 'hidden';
  switch (allowanceOf(rule, principal)) {
    case 'yes': return 'allowed';
    case 'public': return s.privacy === 'public' ? 'allowed' : 'hidden';
    case 'self': return s.onThemselves ? 'allowed' : 'forbidden';
    case 'own': return s.isCreator ? 'allowed' : 'hidden';
    case 'no': return 'forbidden';
  }
}

const ALLOWANCE_TEXT: Record<Allowance, string> = { yes: 'yes', no: '', public: 'public rooms', self: 'themselves', own: 'their own' };

/** The principals with their allowance, in words, e.g. `group admin, room owner, creator (their own)`. */
export function whoMay(rule: AccessRule): string {
  if (rule.audience === 'public') return 'anyone (no token)';
  if (rule.audience === 'session') return 'anyone signing in or signed in (its own session)';
  const parts = PRINCIPALS.filter((p) => allowanceOf(rule, p) !== 'no').map((p) => {
    const name = p.replace(/_/g, ' ');
    const a = allowanceOf(rule, p);
    return a === 'yes' ? name : `${name} (${ALLOWANCE_TEXT[a]})`;
  });
  const who = parts.length ? parts.join(', ') : 'nobody';
  return rule.audience === 'link' ? `anyone holding the link in a public room; in a private room ${who}` : who;
}

/** docs/access.md: the model as a page people read (generated; `npm run docs:access` writes it). */
export function renderAccessDoc(): string {
  const head = ['operation', ...PRINCIPALS.map((p) => p.replace(/_/g, ' '))];
  const cell = (r: AccessRule, p: Principal) => {
    if (r.audience === 'public') return 'anyone';
    if (r.audience === 'session') return 'own session';
    const a = allowanceOf(r, p);
    return a === 'yes' ? 'yes' : a === 'no' ? '–' : ALLOWANCE_TEXT[a];
  };
  const lines = [
    '# Who may do what',
    '',
    'Generated from `libs/contracts/src/access/access-model.ts` by `npm run docs:access`; the',
    'access-matrix test (`apps/gateway/test/access-matrix.int-spec.ts`) checks every row against the',
    'running service. Edit the model, not this page.',
    '',
    '## The actors',
    '',
    ...PRINCIPALS.map((p) => `- **${p.replace(/_/g, ' ')}**: ${PRINCIPAL_TEXT[p]}.`),
    '',
    '## The rules',
    '',
    '- A private room is seen and used by its members, its owner and group admins only; to anyone',
    '  else it does not exist (404 `Room <the reference they sent> not found`, never its name).',
    '- A room is administered (renamed, made private or public, given away, archived, deleted) by its',
    '  owner and group admins; the membership of a private room likewise. The owner is never removed.',
    '- Moving someone else in or out of a room is for the owner and group admins; anyone may enter or',
    '  leave themselves.',
    '- A webhook is its creator\'s (a user, or an add-on installation), the room owner\'s and group',
    '  admins\'; to anyone else it does not exist (404). Its URL\'s query is masked but to its creator.',
    '  A bridge to a chat platform is kept as a webhook and follows the same rule (its URL always',
    '  masked, its secrets never shown).',
    '- A token confined to a room (a room token, an add-on installed in one room) acts in that room',
    '  only (403 elsewhere), and never on the group (creating rooms, users, tokens).',
    '- Whoever loses access to a room (removed, the room made private, user deleted, admin demoted,',
    '  add-on uninstalled) loses everything that reads or writes it: their webhooks there are disabled',
    '  (`creator_lost_access`), their live streams end, replies from those webhooks are refused, and',
    '  the room\'s signed file links issued until then are revoked (401; a webhook or bridge deleted, or',
    '  its URL changed, revokes them too). People never get signed links: history and live streams',
    '  carry the plain file URLs, fetched with a token or session judged at every request.',
    '- v1 tokens are not accepted by v2, nor v2 tokens by v1 (401).',
    '',
    'Cells: **yes**; **–** refused (403, or 404 where the room or webhook is hidden); **public rooms**:',
    'yes in public rooms, a private room does not exist for them; **themselves**: only with their own',
    'user in the path; **their own**: only what they created, anything else does not exist for them.',
    'Token scopes apply on top (the OpenAPI document names them per operation).',
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...ACCESS_MODEL.map((r) => `| \`${r.operation}\` | ${PRINCIPALS.map((p) => cell(r, p)).join(' | ')} |`),
    '',
    '## Notes per operation',
    '',
    ...ACCESS_MODEL.filter((r) => r.note).map((r) => `- \`${r.operation}\`: ${r.note}`),
    '',
  ];
  return lines.join('\n');
}
