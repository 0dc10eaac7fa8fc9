import type { CommandMeta } from '@app/common';
import { CommandFailure, parseRoomRef, parseUserRef } from '@app/contracts';
import { DataSource } from 'typeorm';
import { AuditRepository } from '../audit/audit.repository';
import { ApiTokenEntity } from '../database/entities';
import { UnitOfWork } from '../outbox/unit-of-work';
import { RoomRepository } from '../rooms/room.repository';
import { CreatedToken, CreateToken } from '../tokens/create-token/create-token.usecase';
import { ListTokens } from '../tokens/list-tokens/list-tokens.usecase';
import { RevokeToken } from '../tokens/revoke-token/revoke-token.usecase';
import { TokenRepository } from '../tokens/token.repository';
import { UserRepository } from '../users/user.repository';

/** What a v2 token belongs to, as the CLI's options give it. */
export interface TokenOwner {
  /** --user: user id or e-mail address (personal tokens). */
  user?: string;
  /** --room: room id or name (room tokens). */
  room?: string;
  /** --scopes: the scopes granted to a personal token (default: all of them). */
  scopes?: string[];
}

/** Not a broker command: nothing to apply once, no deadline. */
const CLI_META: CommandMeta = { pattern: 'cli', commandId: '', deadline: 0, redelivered: false };

/**
 * `cli token create|list|revoke`: the token use cases run in this process, their refusals
 * worded with the CLI's own options (`--type`, `--user`...), as the user typed them.
 */
export class TokenCommands {
  private readonly createToken: CreateToken;
  private readonly listTokens: ListTokens;
  private readonly revokeToken: RevokeToken;

  constructor(db: DataSource, uow: UnitOfWork) {
    const tokens = new TokenRepository();
    const audit = new AuditRepository();
    this.createToken = new CreateToken(db, tokens, new UserRepository(), new RoomRepository(), audit);
    this.listTokens = new ListTokens(db, tokens);
    this.revokeToken = new RevokeToken(uow, tokens, audit);
  }

  async create(kind: string, label = '', owner: TokenOwner = {}): Promise<CreatedToken> {
    try {
      return await this.createToken.execute({
        kind, label, scopes: owner.scopes,
        ...(owner.user ? { user: parseUserRef(owner.user) } : {}),
        ...(owner.room ? { room: parseRoomRef(owner.room) } : {}),
      });
    } catch (err) {
      if (err instanceof CommandFailure) throw new Error(describeTokenFailure(err, kind, owner));
      throw err;
    }
  }

  list(includeRevoked: boolean): Promise<ApiTokenEntity[]> {
    return this.listTokens.execute({ includeRevoked });
  }

  revoke(id: number): Promise<boolean> {
    return this.revokeToken.execute({ id, actor: { label: 'cli' } }, CLI_META);
  }
}

/** A refusal of CreateToken, worded with the option the user gave (or left out). */
export function describeTokenFailure(err: CommandFailure, kind: string, owner: TokenOwner): string {
  const { reason, field, detail = {} } = err.error;
  if (reason === 'user_not_found') return `--user: no user ${owner.user ?? ''}`;
  if (reason === 'room_not_found') return `--room: no room ${owner.room ?? ''}`;
  switch (field) {
    case 'kind': return `--type ${detail.problem}`;
    case 'label': return `--label ${detail.problem}`;
    case 'user': return 'a personal token needs --user <id or e-mail address>';
    case 'room': return 'a room token needs --room <id or name>';
    case 'scopes': return detail.scope !== undefined ? `--scopes: ${detail.problem}` : `--scopes ${detail.problem}`;
    case 'owner': return `--user, --room and --scopes are for v2 tokens (personal, room), not ${kind} tokens`;
    default: return `${field ? `${field}: ` : ''}${String(detail.problem ?? reason)}`;
  }
}
