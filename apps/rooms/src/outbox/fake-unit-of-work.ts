import type { CommandMeta } from '@app/common';
import type { EventDefinition } from '@app/contracts';
import type { EntityManager } from 'typeorm';
import type { Tx, UnitOfWork } from './unit-of-work';

/** For use-case specs only. A unit of work: runs the work on a fake transaction that records the events emitted, and whether it ended. */
export function fakeUnitOfWork() {
  const emitted: Array<{ routingKey: string; payload: unknown }> = [];
  const manager = {} as EntityManager;
  const tx: Tx = {
    manager,
    emit<P>(definition: EventDefinition<P>, payload: P) {
      emitted.push({ routingKey: definition.routingKey, payload });
      return { routingKey: definition.routingKey, envelope: {} as never, roomId: null };
    },
    memo: (_key, load) => load(),
    insertLater: () => undefined,
  };
  const uow = { apply: <T>(_meta: CommandMeta, work: (t: Tx) => Promise<T>) => work(tx) } as unknown as UnitOfWork;
  return { uow, emitted, manager };
}

export const META: CommandMeta = { pattern: 'test', commandId: '00000000-0000-4000-8000-000000000001', deadline: 0, redelivered: false };
