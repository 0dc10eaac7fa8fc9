import type { CommandMeta } from '@app/common';
import type { UnitOfWork } from '../outbox/unit-of-work';
import type { UserEntity } from '../database/entities';
import type { PresentationContext } from '../shared/presentation';

/** A UnitOfWork that runs the work on a fake transaction and records the events it emits (routing key, payload). */
export function fakeUnitOfWork() {
  const emitted: Array<[string, unknown]> = [];
  const options: unknown[] = [];
  const manager = {} as never;
  const uow = {
    apply: async <T>(_meta: CommandMeta, work: (tx: unknown) => Promise<T>, opts?: unknown) => {
      options.push(opts);
      return work({ manager, emit: (d: { routingKey: string }, p: unknown) => emitted.push([d.routingKey, p]), memo: (_k: string, load: () => unknown) => load(), insertLater: () => undefined });
    },
  } as unknown as UnitOfWork;
  return { uow, manager, emitted, options };
}

export const META = { commandId: 'c-1' } as unknown as CommandMeta;
export const PRESENTATION_CTX: PresentationContext = { baseUrl: 'https://chat.example.com', xmppMucDomain: 'conf.example.com', groupId: 1 };

export const aUser = (over: Partial<UserEntity> = {}): UserEntity => ({
  id: 7, name: 'Grace Hopper', mentionName: 'grace', email: 'grace@example.com', title: '', passwordHash: 'x', isGroupAdmin: false,
  timezone: 'UTC', status: 'offline', statusMessage: '', isDeleted: false, isGuest: false, version: 'v1', createdAt: new Date('2026-01-01T00:00:00Z'), lastActiveAt: null,
  ...over,
} as UserEntity);
