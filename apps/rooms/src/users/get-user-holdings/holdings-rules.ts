import type { UserHoldingsView } from '@app/contracts';
import { creatorLostAccess } from '../../webhooks/lost-access/lost-access-rules';
import type { CreatorStanding } from '../../webhooks/webhook.repository';

/** A change that narrows a user's access. */
export type AccessChange = 'delete' | 'demote';

/**
 * How many of the user's enabled webhooks and bridges the change would disable: their
 * standing as it would be after it (deleted; not a group admin), judged by the very rule
 * the change's use case applies (creatorLostAccess, run by WebhookAccessSteps).
 */
export function webhooksLostBy(standings: ReadonlyArray<Pick<CreatorStanding, 'room' | 'creator' | 'webhook'>>, change: AccessChange): { webhooks: number; bridges: number } {
  let webhooks = 0;
  let bridges = 0;
  for (const s of standings) {
    const creator = change === 'delete' ? { ...s.creator, isDeleted: true } : { ...s.creator, isGroupAdmin: false };
    if (!creatorLostAccess({ room: s.room, creator })) continue;
    if (s.webhook?.bridgeKind) bridges++;
    else webhooks++;
  }
  return { webhooks, bridges };
}

/** `1 API token`, `3 API tokens`. */
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What a deletion and a demotion do to a user with these holdings, as sentences a console
 * shows before it asks to confirm. What DeleteUser and UpdateUser do, said in words: a
 * deletion ends sessions, stops personal tokens, takes them out of every room and disables
 * every webhook and bridge they made, and leaves the rooms they own with them as owner; a
 * demotion keeps tokens and sessions (without group administration) and closes the private
 * rooms they are not in, with the webhooks and bridges they made there.
 */
export function holdingsEffects(h: Omit<UserHoldingsView, 'onDelete' | 'onDemote' | 'userId'>): { onDelete: string[]; onDemote: string[] } {
  const onDelete = ['They can no longer sign in, and leave every room they are in; their messages stay.'];
  if (h.sessions > 0) onDelete.push(h.sessions === 1 ? 'Their session ends at once.' : `Their ${h.sessions} sessions end at once.`);
  if (h.apiTokens > 0) onDelete.push(h.apiTokens === 1 ? 'Their API token stops working.' : `Their ${h.apiTokens} API tokens stop working.`);
  if (h.privateRooms > 0) onDelete.push(`They leave ${count(h.privateRooms, 'private room', 'private rooms')}.`);
  if (h.webhooks > 0) onDelete.push(h.webhooks === 1 ? 'Their webhook is disabled.' : `Their ${h.webhooks} webhooks are disabled.`);
  if (h.bridges > 0) onDelete.push(h.bridges === 1 ? 'Their bridge is disabled.' : `Their ${h.bridges} bridges are disabled.`);
  if (h.roomsOwned > 0) {
    onDelete.push(`${h.roomsOwned === 1 ? 'The room they own keeps' : `The ${h.roomsOwned} rooms they own keep`} them as owner until someone else is made owner.`);
  }
  if (h.isGroupAdmin) onDelete.push('They are no longer a group admin.');

  if (!h.isGroupAdmin) return { onDelete, onDemote: ['They are not a group admin: there is nothing to demote.'] };
  const onDemote = ['They can no longer administer the group: people, add-ons, tokens of others and the audit log.'];
  const d = h.ifDemoted;
  if (d.privateRooms > 0) {
    onDemote.push(`They no longer see ${count(d.privateRooms, 'private room', 'private rooms')} they are not a member of.`);
  }
  if (d.webhooks > 0) onDemote.push(d.webhooks === 1 ? 'Their webhook in such a room is disabled.' : `Their ${d.webhooks} webhooks in such rooms are disabled.`);
  if (d.bridges > 0) onDemote.push(d.bridges === 1 ? 'Their bridge in such a room is disabled.' : `Their ${d.bridges} bridges in such rooms are disabled.`);
  const kept = [h.apiTokens > 0 ? count(h.apiTokens, 'API token', 'API tokens') : '', h.sessions > 0 ? count(h.sessions, 'session', 'sessions') : ''].filter(Boolean);
  const one = kept.length === 1 && h.apiTokens + h.sessions === 1;
  if (kept.length > 0) onDemote.push(`Their ${kept.join(' and ')} ${one ? 'keeps' : 'keep'} working, without group administration.`);
  return { onDelete, onDemote };
}
