import { BridgeSpec, bridgeSpecSchema, CommandFailure, DEFAULT_BRIDGE_EVENTS, describeIssue } from '@app/contracts';
import {
  assertBridgeSpec, assertSameKind, assertUnderBridgeLimit, bridgeFieldsOf, BRIDGES_PER_ROOM_MAX, inboundKeyHash, newInboundKey,
} from './bridge-rules';
import { inboundKeyPlan } from './put-bridge/inbound-key-plan';

const slack: BridgeSpec = { kind: 'slack', url: 'https://hooks.slack.com/services/T0/B0/x' };

/** The refusal's field and problem, as the APIs word them. */
function refusal(f: () => void): string {
  try {
    f();
  } catch (err) {
    if (err instanceof CommandFailure) return `${err.error.field ?? ''}: ${String(err.error.detail?.problem)}`;
    throw err;
  }
  return 'accepted';
}

/** The first problem the schema finds, as the v2 edge words it. */
function schemaProblem(body: unknown): string {
  const parsed = bridgeSpecSchema.safeParse(body);
  return parsed.success ? 'accepted' : describeIssue(parsed.error.issues[0]);
}

describe('a bridge\'s field rules (contracts schema)', () => {
  it('takes each of the seven kinds and names the others', () => {
    for (const kind of ['slack', 'mattermost', 'discord', 'teams', 'googlechat', 'rocketchat', 'matrix']) {
      expect(schemaProblem({ ...slack, kind })).toBe('accepted');
    }
    expect(schemaProblem({ ...slack, kind: 'irc' })).toBe('kind: must be one of slack, mattermost, discord, teams, googlechat, rocketchat, matrix (got "irc")');
    expect(schemaProblem({ url: slack.url })).toBe('kind: is required');
  });

  it('takes the webhook URL rule', () => {
    expect(schemaProblem({ ...slack, url: 'ftp://example.com/x' })).toMatch(/^url: must be an http\(s\) URL/);
    expect(schemaProblem({ ...slack, url: 'https://u:p@example.com/x' })).toBe('url: must not carry a user name or password');
  });

  it('takes a non-empty list of the room events, each once', () => {
    expect(schemaProblem({ ...slack, events: [] })).toMatch(/^events: must name at least one of room_archived/);
    expect(schemaProblem({ ...slack, events: ['room_message', 'room_message'] })).toBe('events: must not name an event twice (room_message)');
    expect(schemaProblem({ ...slack, events: ['room_message', 'room_lunch'] })).toMatch(/^events\.1: must be one of /);
    expect(schemaProblem({ ...slack, events: 'room_message' })).toBe('events: must be a list (got string)');
  });

  it('checks the pattern with RE2 and the name\'s length', () => {
    expect(schemaProblem({ ...slack, pattern: '(a)\\1' })).toMatch(/^pattern: /);
    expect(schemaProblem({ ...slack, name: 'x'.repeat(101) })).toBe('name: must be at most 100 characters (got 101)');
  });

  it('checks the Matrix room id and token, and the inbound secrets', () => {
    expect(schemaProblem({ ...slack, kind: 'matrix', matrix: { room_id: 'abc', access_token: 't' } }))
      .toBe('matrix.room_id: must be a Matrix room id, !opaque_id:server (e.g. !abc:example.org)');
    expect(schemaProblem({ ...slack, kind: 'matrix', matrix: { room_id: '!abc:example.org', access_token: 'x'.repeat(513) } }))
      .toBe('matrix.access_token: must be 1 to 512 characters (got 513)');
    expect(schemaProblem({ ...slack, inbound: { enabled: 'yes' } })).toBe('inbound.enabled: must be true or false (got string)');
    expect(schemaProblem({ ...slack, inbound: { enabled: true, token: '' } })).toBe('inbound.token: must be 1 to 256 characters (got 0)');
    expect(schemaProblem({ ...slack, kind: 'teams', inbound: { enabled: true, hmac_secret: 'not base64!' } }))
      .toBe('inbound.hmac_secret: must be base64 (Teams shows the security token so)');
  });
});

describe('the rules between a bridge\'s fields', () => {
  it('wants matrix with kind matrix only, and its token to create one', () => {
    expect(refusal(() => assertBridgeSpec({ ...slack, kind: 'matrix' }, true))).toMatch(/^matrix: is required for kind matrix/);
    expect(refusal(() => assertBridgeSpec({ ...slack, kind: 'matrix', matrix: { room_id: '!a:b' } }, true)))
      .toBe('matrix.access_token: is required to create a Matrix bridge');
    expect(refusal(() => assertBridgeSpec({ ...slack, kind: 'matrix', matrix: { room_id: '!a:b' } }, false))).toBe('accepted');
    expect(refusal(() => assertBridgeSpec({ ...slack, matrix: { room_id: '!a:b', access_token: 't' } }, true)))
      .toBe('matrix: applies to kind matrix only (kind is slack)');
  });

  it('refuses inbound for the platforms without outgoing webhooks, naming inbound.enabled', () => {
    for (const kind of ['discord', 'googlechat', 'matrix'] as const) {
      const spec = { ...slack, kind, ...(kind === 'matrix' ? { matrix: { room_id: '!a:b', access_token: 't' } } : {}), inbound: { enabled: true } };
      expect(refusal(() => assertBridgeSpec(spec, true))).toMatch(/^inbound\.enabled: .* has no outgoing webhooks to send its messages back: inbound is for kinds slack, mattermost, rocketchat, teams$/);
    }
    for (const kind of ['slack', 'mattermost', 'rocketchat', 'teams'] as const) {
      expect(refusal(() => assertBridgeSpec({ ...slack, kind, inbound: { enabled: true } }, true))).toBe('accepted');
    }
  });

  it('takes the verification each platform sends', () => {
    expect(refusal(() => assertBridgeSpec({ ...slack, inbound: { enabled: true, hmac_secret: 'c2VjcmV0' } }, true))).toMatch(/^inbound\.hmac_secret: applies to kind teams only/);
    expect(refusal(() => assertBridgeSpec({ ...slack, kind: 'teams', inbound: { enabled: true, token: 't' } }, true))).toMatch(/^inbound\.token: Microsoft Teams sends no token/);
    expect(refusal(() => assertBridgeSpec({ ...slack, inbound: { enabled: false, rotate: true } }, false))).toMatch(/^inbound\.rotate: needs inbound\.enabled true/);
  });

  it('wants room_message among the events for a pattern', () => {
    expect(refusal(() => assertBridgeSpec({ ...slack, pattern: 'deploy' }, true))).toBe('accepted');
    expect(refusal(() => assertBridgeSpec({ ...slack, pattern: 'deploy', events: ['room_topic_change'] }, true)))
      .toBe('pattern: filters message text: it needs room_message among events');
  });

  it('keeps a bridge\'s kind, and the room\'s limit', () => {
    expect(refusal(() => assertSameKind('slack', 'discord'))).toBe('kind: cannot change (this bridge is slack): delete it and add a discord bridge');
    expect(refusal(() => assertSameKind('slack', 'slack'))).toBe('accepted');
    expect(refusal(() => assertUnderBridgeLimit(BRIDGES_PER_ROOM_MAX - 1))).toBe('accepted');
    expect(refusal(() => assertUnderBridgeLimit(BRIDGES_PER_ROOM_MAX))).toBe(`: at most ${BRIDGES_PER_ROOM_MAX} bridges per room, and this room has ${BRIDGES_PER_ROOM_MAX}: delete one first`);
  });

  it('puts absent fields at their defaults', () => {
    expect(bridgeFieldsOf(slack)).toEqual({
      kind: 'slack', url: slack.url, events: [...DEFAULT_BRIDGE_EVENTS], pattern: null, name: '', matrixRoomId: null, inboundEnabled: false,
    });
  });
});

describe('inbound URLs', () => {
  it('are unguessable keys of which only the hash is kept', () => {
    const a = newInboundKey();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newInboundKey()).not.toBe(a);
    expect(inboundKeyHash(a)).toHaveLength(32);
    expect(inboundKeyHash(a).equals(inboundKeyHash(a))).toBe(true);
  });

  it('are made when inbound is first enabled or rotated, else kept', () => {
    expect(inboundKeyPlan({ hasKey: false }, true, false)).toBe('first');
    expect(inboundKeyPlan({ hasKey: true }, true, false)).toBe('none');
    expect(inboundKeyPlan({ hasKey: true }, true, true)).toBe('rotated');
    expect(inboundKeyPlan({ hasKey: true }, false, false)).toBe('none');
  });
});
