import { sseComment, sseEvent } from './sse';

describe('Server-Sent Events framing', () => {
  it('writes id, event and data, then the blank line that ends the event', () => {
    expect(sseEvent({ id: 7, event: 'room_message', data: '{"a":1}' })).toBe('id: 7\nevent: room_message\ndata: {"a":1}\n\n');
  });

  it('leaves out what is not given (an event without id keeps the client\'s last id)', () => {
    expect(sseEvent({ event: 'error', data: '{}' })).toBe('event: error\ndata: {}\n\n');
    expect(sseEvent({ data: 'x' })).toBe('data: x\n\n');
  });

  it('splits data on every kind of line break, so that no break ends the field early', () => {
    expect(sseEvent({ data: 'a\nb\r\nc\rd' })).toBe('data: a\ndata: b\ndata: c\ndata: d\n\n');
  });

  it('refuses a line break in an id or event name', () => {
    expect(() => sseEvent({ id: '1\n2', data: '' })).toThrow('an SSE id may not contain a line break');
    expect(() => sseEvent({ event: 'a\rb', data: '' })).toThrow('an SSE event may not contain a line break');
  });

  it('writes comments on one line', () => {
    expect(sseComment()).toBe(':\n\n');
    expect(sseComment(' stopping\nreconnect')).toBe(': stopping reconnect\n\n');
  });
});
