import { connect } from 'amqplib';
import { createLogger } from '@app/common';
import { brokerNames } from '@app/contracts';
import { deleteBrokerNamespace, eventually, testInfra, uniqueName } from '../../../test/support/harness';
import { OutageProxy } from '../../../test/support/outage-proxy';
import { DeliveryDecisions } from '../src/delivery/delivery-decisions';
import { DeliveryJob, deliveryIdOf } from '../src/delivery/delivery-job';
import { DeliveryQueues, JobLease } from '../src/delivery/delivery-queues';

/**
 * A delivery job written to the broker but not yet confirmed when the connection drops (a
 * cluster node stopping): its publish fails at once (amqplib fails a closed channel's pending
 * confirms), so the event behind it is requeued and matched again now, not after the 30 s
 * publish timeout. Real RabbitMQ behind a proxy that first holds the broker's answers back
 * (the confirm is in flight), then drops the connection.
 */
describe('delivery jobs in flight when the broker connection drops (real RabbitMQ)', () => {
  const infra = testInfra();
  const namespace = uniqueName('lost');
  const names = brokerNames(namespace);
  // The delay queues of a one-wait retry schedule, as the dispatcher declares them.
  const schedule = [300];
  const tiers = new DeliveryDecisions(schedule).tiers;
  const job = (deliveryId: string) => ({ deliveryId, attempt: 1 }) as unknown as DeliveryJob;
  let proxy: OutageProxy;
  let queues: DeliveryQueues;

  beforeAll(async () => {
    const broker = new URL(infra.amqpUrl);
    proxy = await OutageProxy.start({ host: broker.hostname, port: Number(broker.port || 5672) });
    queues = await DeliveryQueues.connect(proxy.rewrite(infra.amqpUrl), names, tiers, createLogger('test', 'silent'), 5_000, 'classic');
  });
  afterAll(async () => {
    await queues?.close(0);
    await proxy?.close();
    await deleteBrokerNamespace(infra.amqpUrl, namespace, schedule);
  });

  it('fails the unconfirmed publish when the connection drops, and publishes again once it is back', async () => {
    await queues.publishJobs([job('before')]);
    proxy.freeze();
    const started = Date.now();
    const inFlight = queues.publishJobs([job('in-flight')]);
    inFlight.catch(() => undefined);
    // Written and taken by the broker; its confirm is held back by the proxy.
    await new Promise((r) => setTimeout(r, 300));
    proxy.outage(500);
    await expect(inFlight).rejects.toThrow(/channel closed/);
    expect(Date.now() - started).toBeLessThan(5_000);

    // Back: the caller's next publish is confirmed as usual.
    await proxy.restored();
    await eventually(() => queues.publishJobs([job('after')]), 20_000);
    const conn = await connect(infra.amqpUrl);
    try {
      const ch = await conn.createChannel();
      const ids: string[] = [];
      for (let msg = await ch.get(names.deliveriesQueue, { noAck: true }); msg; msg = await ch.get(names.deliveriesQueue, { noAck: true })) {
        ids.push(JSON.parse(msg.content.toString()).deliveryId);
      }
      // The broker had taken the one in flight (a duplicate, had its caller published it again).
      expect(ids).toEqual(expect.arrayContaining(['before', 'in-flight', 'after']));
    } finally {
      await conn.close();
    }
  }, 40_000);

  it('hands out jobs after its connection dropped as possibly published twice (looked up before they are made)', async () => {
    const full = (eventId: string): DeliveryJob => ({
      deliveryId: deliveryIdOf(eventId, 7), webhookId: 7, event: 'room_notification', eventId, roomId: 3, attempt: 1,
      envelopeBody: '{}', createdAt: new Date().toISOString(), replyDepth: 1, actorUserId: null, registrationsVersion: null,
    });
    const handedOut = async (q: DeliveryQueues, eventId: string): Promise<JobLease> => {
      const leases: JobLease[] = [];
      await q.consume(5, async (_job, lease) => {
        leases.push(lease);
        return 'ack';
      });
      await q.publishJobs([full(eventId)]);
      await eventually(() => expect(leases).toHaveLength(1), 10_000);
      return leases[0];
    };
    // This one's connection dropped in the test above.
    expect((await handedOut(queues, 'after-drop')).mayBeCopy).toBe(true);
    // One whose connection never dropped hands a first attempt out as its only copy.
    const namespace2 = uniqueName('steady');
    const steady = await DeliveryQueues.connect(infra.amqpUrl, brokerNames(namespace2), tiers, createLogger('test', 'silent'), 5_000, 'classic');
    try {
      expect((await handedOut(steady, 'steady')).mayBeCopy).toBe(false);
    } finally {
      await steady.close(0);
      await deleteBrokerNamespace(infra.amqpUrl, namespace2, schedule);
    }
  }, 40_000);
});
