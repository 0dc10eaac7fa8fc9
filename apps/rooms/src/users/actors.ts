import { Inject, Injectable } from '@nestjs/common';
import { Actor, Sender } from '@app/contracts';
import { EntityManager } from 'typeorm';
import type { UserEntity } from '../database/entities';
import { UserRepository } from './user.repository';
import { PresentationContext, toUserObject } from '../shared/presentation';
import { PRESENTATION } from '../shared/infrastructure.module';

/**
 * Who an event names as its sender: the acting user (v2 personal tokens) as a User
 * object, else the token's label (v1 tokens, integrations).
 */
@Injectable()
export class Actors {
  constructor(private readonly users: UserRepository, @Inject(PRESENTATION) private readonly ctx: PresentationContext) {}

  /** The acting user, when a user acts: a live one (a deleted user's token no longer resolves). */
  async user(m: EntityManager, actor: Actor): Promise<UserEntity | null> {
    if (actor.userId === undefined) return null;
    // Live: a command in flight from a user deleted meanwhile (or a live stream's re-check) is refused.
    return this.users.findByRef(m, { id: actor.userId }, { live: true, field: 'actor' });
  }

  async sender(m: EntityManager, actor: Actor): Promise<Sender> {
    const user = await this.user(m, actor);
    return user ? toUserObject(user, this.ctx) : actor.label || 'API';
  }
}
