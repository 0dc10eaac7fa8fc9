import type { Socket } from 'node:net';

const COALESCING = Symbol('coalescing writes');

/**
 * Sends what a socket is given within one tick in one system call: the first write of a tick
 * corks the socket, and the next tick uncorks it (one writev). amqplib writes every message
 * (and every ack) on its own: a process publishing, replying and acknowledging for many
 * commands in one tick made a system call each, and on loopback the sender's call also runs
 * the receiver's side of TCP. Order and back-pressure are the socket's as before.
 */
export function coalesceWrites(socket: Socket | undefined): void {
  if (!socket || typeof socket.cork !== 'function' || (socket as unknown as Record<symbol, boolean>)[COALESCING]) return;
  (socket as unknown as Record<symbol, boolean>)[COALESCING] = true;
  const write = socket.write;
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  socket.write = function coalescedWrite(this: Socket, ...args: unknown[]) {
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as Socket['write'];
}

/** The socket under an amqp-connection-manager connection (amqplib's ChannelModel), when there is one. */
export function amqpSocketOf(connection: unknown): Socket | undefined {
  const stream = (connection as { connection?: { stream?: unknown } } | undefined)?.connection?.stream;
  return stream && typeof (stream as Socket).cork === 'function' ? (stream as Socket) : undefined;
}
