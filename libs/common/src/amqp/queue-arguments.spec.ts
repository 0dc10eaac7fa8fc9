import { declareQueue, DELIVERY_LIMIT, durableQueueOptions, QueueKind, QueueTypeMismatchError, quorumUnsupportedReason } from './queue-arguments';

describe('durableQueueOptions', () => {
  const deadLetter = { exchange: 'chat.events.dead-letter', routingKey: 'chat.q' };
  const back = { exchange: 'chat.webhook-deliveries', routingKey: 'chat.webhook-dispatcher.deliveries' };
  const dlx = (d: typeof deadLetter) => ({ 'x-dead-letter-exchange': d.exchange, 'x-dead-letter-routing-key': d.routingKey });
  const atLeastOnce = { 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' };
  const quorum = { 'x-queue-type': 'quorum' };

  const kinds: Array<[string, QueueKind, Record<string, unknown> | undefined, Record<string, unknown>]> = [
    // [name, kind, classic arguments (as before AMQP_QUEUE_TYPE), quorum arguments]
    ['commands', { kind: 'commands' }, undefined, { ...quorum, 'x-delivery-limit': DELIVERY_LIMIT }],
    ['events', { kind: 'events', deadLetter }, dlx(deadLetter), { ...quorum, ...dlx(deadLetter), ...atLeastOnce }],
    ['ordered events', { kind: 'events', deadLetter, singleActiveConsumer: true },
      { ...dlx(deadLetter), 'x-single-active-consumer': true },
      { ...quorum, ...dlx(deadLetter), ...atLeastOnce, 'x-single-active-consumer': true }],
    ['jobs', { kind: 'jobs', deadLetter }, dlx(deadLetter), { ...quorum, ...dlx(deadLetter), ...atLeastOnce, 'x-delivery-limit': DELIVERY_LIMIT }],
    ['dead-letter', { kind: 'dead-letter' }, undefined, quorum],
    ['delay', { kind: 'delay', deadLetter: back }, dlx(back), { ...quorum, ...dlx(back), ...atLeastOnce }],
  ];

  it.each(kinds)('%s: classic as before, quorum with its arguments', (_name, kind, classic, quorumArgs) => {
    expect(durableQueueOptions('classic', kind)).toEqual(classic ? { durable: true, arguments: classic } : { durable: true });
    expect(durableQueueOptions('quorum', kind)).toEqual({ durable: true, arguments: quorumArgs });
  });

  it('never sets what quorum queues refuse (exclusive, auto-delete, priorities) nor a length limit', () => {
    for (const [, kind] of kinds) {
      const options = durableQueueOptions('quorum', kind);
      expect(options).not.toHaveProperty('exclusive');
      expect(options).not.toHaveProperty('autoDelete');
      expect(Object.keys(options.arguments ?? {}).filter((a) => /max-priority|max-length/.test(a))).toEqual([]);
    }
  });
});

describe('declareQueue', () => {
  const refusal = (current: string) => Object.assign(new Error(
    `Operation failed: QueueDeclare; 406 (PRECONDITION-FAILED) with message "PRECONDITION_FAILED - inequivalent arg 'x-queue-type' ` +
    `for queue 'chat.rooms.commands' in vhost '/': received the value 'quorum' of type 'longstr' but current is ${current}"`), { code: 406 });

  it('turns the refusal of another queue type into a message naming the queue and the ways out', async () => {
    const channel = { assertQueue: jest.fn().mockRejectedValue(refusal('none')) };
    const declared = declareQueue(channel, { queue: 'chat.rooms.commands', options: durableQueueOptions('quorum', { kind: 'commands' }) });
    await expect(declared).rejects.toBeInstanceOf(QueueTypeMismatchError);
    await expect(declared).rejects.toThrow(/queue "chat.rooms.commands" as a classic queue; AMQP_QUEUE_TYPE asks for quorum/);
    await expect(declared).rejects.toThrow(/set AMQP_QUEUE_TYPE=classic/);
    await expect(declared).rejects.toThrow(/delete the classic queues/);
  });

  it('passes any other refusal on as it is', async () => {
    const other = Object.assign(new Error("PRECONDITION_FAILED - inequivalent arg 'x-dead-letter-exchange'"), { code: 406 });
    const channel = { assertQueue: jest.fn().mockRejectedValue(other) };
    await expect(declareQueue(channel, { queue: 'q', options: { durable: true } })).rejects.toBe(other);
  });
});

describe('quorumUnsupportedReason', () => {
  it('accepts RabbitMQ 3.10 and later, and a version it cannot read', () => {
    for (const version of ['3.10.0', '3.10.8', '3.13.7', '4.0.5', '10.1.0', undefined, 'unknown']) {
      expect(quorumUnsupportedReason(version)).toBeUndefined();
    }
  });

  it('refuses older brokers, naming the version, the variable and the way out', () => {
    for (const version of ['3.9.29', '3.8.0', '2.8.1']) {
      const reason = quorumUnsupportedReason(version);
      expect(reason).toContain(`RabbitMQ ${version} cannot hold the quorum queues`);
      expect(reason).toContain('RabbitMQ 3.10.0 or later');
      expect(reason).toContain('set AMQP_QUEUE_TYPE=classic');
    }
  });
});
