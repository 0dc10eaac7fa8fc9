import { batchDeadline, readCommandBatch, readReplyBatch } from './command-batch';

const body = (v: unknown) => Buffer.from(JSON.stringify(v));

describe('command batches', () => {
  it('reads each command of a batch, with what a single message would carry', () => {
    expect(readCommandBatch(body({
      commands: [
        { correlationId: 'c1', messageId: 'm1', pattern: 'rooms.get-room.v1', deadline: 1_700_000_000_000, headers: { traceparent: 't' }, payload: { room: { id: 1 } } },
        // Without a message id the correlation id is the command id; without a deadline, none.
        { correlationId: 'c2', pattern: 'rooms.set-topic.v1', payload: null, deadline: 'soon', headers: [1] },
      ],
    }))).toEqual([
      { correlationId: 'c1', messageId: 'm1', pattern: 'rooms.get-room.v1', deadline: 1_700_000_000_000, headers: { traceparent: 't' }, payload: { room: { id: 1 } } },
      { correlationId: 'c2', messageId: 'c2', pattern: 'rooms.set-topic.v1', deadline: 0, headers: {}, payload: null },
    ]);
  });

  it('refuses a body that is no batch, or a command it could not answer', () => {
    expect(() => readCommandBatch(Buffer.from('not json'))).toThrow();
    expect(() => readCommandBatch(body({ commands: 'all' }))).toThrow('"commands" array');
    expect(() => readCommandBatch(body([]))).toThrow('"commands" array');
    expect(() => readCommandBatch(body({ commands: [{ pattern: 'rooms.get-room.v1' }] }))).toThrow('command 0 of the batch has no correlationId');
    expect(() => readCommandBatch(body({ commands: [{ correlationId: 'c', pattern: 'p' }, 7] }))).toThrow('command 1');
  });

  it('reads the replies of a reply batch, passing over entries with no correlation id', () => {
    expect(readReplyBatch(body({ replies: [{ correlationId: 'c1', reply: { ok: {} } }, { reply: { ok: {} } }, null] })))
      .toEqual([{ correlationId: 'c1', reply: { ok: {} } }]);
    expect(() => readReplyBatch(body({ reply: [] }))).toThrow('"replies" array');
  });

  it('expires a batch at the earliest deadline of its commands (0: none has one)', () => {
    expect(batchDeadline([{ deadline: 30 }, { deadline: 0 }, { deadline: 20 }])).toBe(20);
    expect(batchDeadline([{ deadline: 0 }])).toBe(0);
  });
});
