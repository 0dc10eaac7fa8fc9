import { Injectable } from '@nestjs/common';
import { generateApiToken, hashApiToken } from '@app/common';
import { commandFailure, LIMITS, RoomRef, TOKEN_KINDS, TokenKind, V2_SCOPES } from '@app/contracts';
import { DataSource } from 'typeorm';
import { RoomRepository } from '../../rooms/room.repository';
import { UserRepository } from '../../users/user.repository';
import { TokenRepository } from '../token.repository';
import { AuditRepository } from '../../audit/audit.repository';

/** A token to make: a v1 token (admin, notification) or a v2 one, which belongs to a user (personal) or a room. */
export interface CreateTokenCommand {
  kind: string;
  label: string;
  /** Personal tokens: the user who acts (a live one). */
  user?: { id: number } | { email: string };
  /** Room tokens: the room they send notifications to. */
  room?: RoomRef;
  /** Personal tokens: the scopes granted (default: all of them). */
  scopes?: string[];
}

export interface CreatedToken { id: number; token: string; kind: TokenKind; label: string }

/** Kinds made here: add-on tokens come from the OAuth token URL, sessions from a sign-in. */
const MADE_KINDS = TOKEN_KINDS.filter((k) => k !== 'addon' && k !== 'session');

/**
 * Creates a token: the only time its clear text exists (its hash is stored). Refusals
 * name the field (kind, label, user, room, scopes, owner); the CLI words them as its options.
 */
@Injectable()
export class CreateToken {
  constructor(
    private readonly db: DataSource,
    private readonly tokens: TokenRepository,
    private readonly users: UserRepository,
    private readonly rooms: RoomRepository,
    private readonly audit: AuditRepository,
  ) {}

  async execute(cmd: CreateTokenCommand): Promise<CreatedToken> {
    const m = this.db.manager;
    if (!(MADE_KINDS as readonly string[]).includes(cmd.kind)) {
      throw commandFailure('invalid', 'rule', 'kind', {
        problem: `must be one of ${MADE_KINDS.join(', ')} (got "${cmd.kind}"); add-on tokens come from the OAuth token URL, sessions from a sign-in`,
      });
    }
    const kind = cmd.kind as TokenKind;
    if (cmd.label.length > LIMITS.tokenLabelMaxLength) {
      throw commandFailure('invalid', 'rule', 'label', { problem: `must be at most ${LIMITS.tokenLabelMaxLength} characters` });
    }
    let userId: number | null = null;
    let roomId: number | null = null;
    let scopes: string[] = [];
    if (kind === 'personal') {
      if (!cmd.user) throw commandFailure('invalid', 'rule', 'user', { problem: 'is required for a personal token' });
      userId = (await this.users.findByRef(m, cmd.user, { live: true })).id;
      const asked = cmd.scopes ?? [...V2_SCOPES];
      const unknown = asked.filter((s) => !(V2_SCOPES as readonly string[]).includes(s));
      if (unknown.length > 0) {
        throw commandFailure('invalid', 'rule', 'scopes', { scope: unknown[0], problem: `unknown scope "${unknown[0]}"; the scopes are ${V2_SCOPES.join(', ')}` });
      }
      if (asked.length === 0) throw commandFailure('invalid', 'rule', 'scopes', { problem: 'must name at least one scope' });
      scopes = [...new Set(asked)];
    } else if (kind === 'room') {
      if (!cmd.room) throw commandFailure('invalid', 'rule', 'room', { problem: 'is required for a room token' });
      roomId = (await this.rooms.findByRef(m, cmd.room)).id;
      scopes = ['send_notification'];
    } else if (cmd.user || cmd.room || cmd.scopes) {
      throw commandFailure('invalid', 'rule', 'owner', { problem: `user, room and scopes are for v2 tokens (personal, room), not ${kind} tokens` });
    }
    const token = generateApiToken();
    // The token and its audit line commit together (the operator's CLI makes these: its actor).
    const id = await this.db.transaction(async (t) => {
      const made = await this.tokens.insert(t, { tokenHash: hashApiToken(token), kind, label: cmd.label, userId, roomId, scopes });
      await this.audit.append(t, { label: 'cli' }, { action: 'token.created', target: { type: 'token', id: made, name: cmd.label }, details: { kind, userId, roomId, scopes } });
      return made;
    });
    return { id, token, kind, label: cmd.label };
  }
}
