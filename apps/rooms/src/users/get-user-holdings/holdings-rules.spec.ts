import type { CreatorStanding } from '../../webhooks/webhook.repository';
import { holdingsEffects, webhooksLostBy } from './holdings-rules';

const standing = (privacy: 'public' | 'private', who: Partial<CreatorStanding['creator']>, bridge = false): Pick<CreatorStanding, 'room' | 'creator' | 'webhook'> => ({
  room: { privacy },
  creator: { id: 7, isDeleted: false, isGroupAdmin: true, isMember: false, isOwner: false, ...who },
  webhook: { name: null, url: 'https://hooks.example.com/x', bridgeKind: bridge ? 'slack' : null },
});

const none = { roomsOwned: 0, privateRooms: 0, apiTokens: 0, sessions: 0, webhooks: 0, bridges: 0, isGroupAdmin: false, ifDemoted: { privateRooms: 0, webhooks: 0, bridges: 0 } };

describe('webhooksLostBy: what a change of access disables, by the lost-access rule', () => {
  const standings = [
    standing('public', {}), standing('private', {}), standing('private', { isMember: true }), standing('private', { isOwner: true }, true),
    standing('private', {}, true),
  ];

  it('a deletion disables every one of them, webhooks and bridges apart', () => {
    expect(webhooksLostBy(standings, 'delete')).toEqual({ webhooks: 3, bridges: 2 });
  });

  it('a demotion disables those in private rooms they are neither a member nor the owner of', () => {
    expect(webhooksLostBy(standings, 'demote')).toEqual({ webhooks: 1, bridges: 1 });
    expect(webhooksLostBy([], 'demote')).toEqual({ webhooks: 0, bridges: 0 });
  });
});

describe('holdingsEffects: a deletion and a demotion in words', () => {
  it('says what a deletion takes, counted, and a demotion of a non-admin is nothing', () => {
    expect(holdingsEffects({ ...none, roomsOwned: 2, privateRooms: 2, apiTokens: 3, sessions: 1, webhooks: 4, bridges: 1 })).toEqual({
      onDelete: [
        'They can no longer sign in, and leave every room they are in; their messages stay.',
        'Their session ends at once.',
        'Their 3 API tokens stop working.',
        'They leave 2 private rooms.',
        'Their 4 webhooks are disabled.',
        'Their bridge is disabled.',
        'The 2 rooms they own keep them as owner until someone else is made owner.',
      ],
      onDemote: ['They are not a group admin: there is nothing to demote.'],
    });
  });

  it('says nothing of what they do not hold', () => {
    expect(holdingsEffects(none).onDelete).toEqual(['They can no longer sign in, and leave every room they are in; their messages stay.']);
  });

  it('says what a demotion of a group admin takes and keeps', () => {
    const admin = { ...none, isGroupAdmin: true, apiTokens: 1, sessions: 2, roomsOwned: 1, ifDemoted: { privateRooms: 3, webhooks: 1, bridges: 2 } };
    const { onDelete, onDemote } = holdingsEffects(admin);
    expect(onDelete).toContain('They are no longer a group admin.');
    expect(onDelete).toContain('The room they own keeps them as owner until someone else is made owner.');
    expect(onDemote).toEqual([
      'They can no longer administer the group: people, add-ons, tokens of others and the audit log.',
      'They no longer see 3 private rooms they are not a member of.',
      'Their webhook in such a room is disabled.',
      'Their 2 bridges in such rooms are disabled.',
      'Their 1 API token and 2 sessions keep working, without group administration.',
    ]);
    expect(holdingsEffects({ ...none, isGroupAdmin: true, sessions: 1 }).onDemote).toEqual([
      'They can no longer administer the group: people, add-ons, tokens of others and the audit log.',
      'Their 1 session keeps working, without group administration.',
    ]);
  });
});
