import { connect } from 'amqplib';

const ignore = () => undefined;

/**
 * Whether the rooms service serves its command queue yet. A command sent to a queue that
 * does not exist is dropped and only times out, so at start the dispatcher asks this first
 * (it starts alongside the rooms service, which may still be migrating).
 */
export async function commandQueueServed(amqpUrl: string, queue: string): Promise<boolean> {
  let conn;
  try {
    conn = await connect(amqpUrl, { timeout: 3_000 });
    conn.on('error', ignore);
    const ch = await conn.createChannel();
    // A missing queue closes the channel with an error event: without a listener it would throw.
    ch.on('error', ignore);
    return (await ch.checkQueue(queue)).consumerCount > 0;
  } catch {
    return false;
  } finally {
    await conn?.close().catch(ignore);
  }
}
