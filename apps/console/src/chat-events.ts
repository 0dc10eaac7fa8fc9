/**
 * What the chat screens tell each other within the page: which chat is open (its new messages
 * are read as they arrive, so the sidebar does not count them) and that a chat was read (the
 * sidebar clears its count). Plain window events: no screen imports another.
 */
export interface ChatRef {
  type: 'room' | 'user';
  /** The room's id, or the other person's user id. */
  id: number;
}

const READ = 'chat:read';
let open: ChatRef | null = null;

export const sameChat = (a: ChatRef | null, b: ChatRef | null): boolean => !!a && !!b && a.type === b.type && a.id === b.id;

/** The chat on screen now (null: none), set by the room and private chat pages. */
export function setOpenChat(ref: ChatRef | null): void {
  open = ref;
}

export function openChat(): ChatRef | null {
  return open;
}

/** A chat was read up to its newest message (the page has told the server). */
export function announceRead(ref: ChatRef): void {
  window.dispatchEvent(new CustomEvent<ChatRef>(READ, { detail: ref }));
}

export function onRead(handler: (ref: ChatRef) => void): () => void {
  const listener = (e: Event) => handler((e as CustomEvent<ChatRef>).detail);
  window.addEventListener(READ, listener);
  return () => window.removeEventListener(READ, listener);
}
