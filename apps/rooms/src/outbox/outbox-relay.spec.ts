import { createLogger } from '@app/common';
import { DataSource } from 'typeorm';
import { StagedEvent } from './outbox';
import { OutboxRelay } from './outbox-relay';

/** A relay without a publisher (the CLI's), on a database whose outbox is already empty. */
function cliRelay(awaitRelay?: () => Promise<boolean>) {
  const queries: string[] = [];
  const db = { query: async (text: string) => { queries.push(text); return [{ left: 0 }]; } } as unknown as DataSource;
  const asked = jest.fn(awaitRelay ?? (async () => true));
  const relay = new OutboxRelay(db, null, createLogger('test', 'silent'), { pollMs: 1000, ...(awaitRelay ? { awaitRelay: asked } : {}) });
  return { relay, queries, asked };
}

const revoked = { envelope: { id: '0f6c1b1e-7a43-4f3e-9d38-2b1f0c6e5a11' } } as StagedEvent;

describe('OutboxRelay.published without a publisher (the CLI)', () => {
  it('asks awaitRelay only when there are events to wait for', async () => {
    const { relay, queries, asked } = cliRelay(async () => true);
    await relay.published([]);
    expect(asked).not.toHaveBeenCalled();
    await relay.published([revoked]);
    expect(asked).toHaveBeenCalledTimes(1);
    expect(queries).toEqual([expect.stringContaining('FROM outbox WHERE event_id')]);
  });

  it('does not wait when awaitRelay says no, fails, or is not given', async () => {
    for (const awaitRelay of [async () => false, async () => { throw new Error('broker down'); }, undefined]) {
      const { relay, queries } = cliRelay(awaitRelay);
      await relay.published([revoked]);
      expect(queries).toEqual([]);
    }
  });
});
