// Listens to the system's events exchange the way any consumer would: an exclusive,
// auto-delete queue bound with a routing key. Each event is stamped when it arrives.
const { performance } = require('node:perf_hooks');
const amqp = require('amqplib');

/** Calls onEvent(envelope, arrivedAtMs) for each event; resolves with a close() function. */
async function listenEvents(amqpUrl, namespace, routingKey, onEvent) {
  const conn = await amqp.connect(amqpUrl);
  const ch = await conn.createChannel();
  await ch.checkExchange(`${namespace}.events`);
  const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true });
  await ch.bindQueue(queue, `${namespace}.events`, routingKey);
  await ch.consume(queue, (msg) => {
    if (!msg) return;
    const at = performance.now();
    let envelope;
    try {
      envelope = JSON.parse(msg.content.toString('utf8'));
    } catch {
      return;
    }
    onEvent(envelope, at);
  }, { noAck: true });
  return async () => {
    await ch.close().catch(() => undefined);
    await conn.close().catch(() => undefined);
  };
}

module.exports = { listenEvents };
