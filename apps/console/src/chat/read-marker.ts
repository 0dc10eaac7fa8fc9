import { useEffect, useRef } from 'preact/hooks';
import { api } from '../api';
import { announceRead, ChatRef, setOpenChat } from '../chat-events';
import type { ChatItem } from '../messages';

/**
 * Keeps the open chat read on the server (PUT …/read {"message_id"}) up to the newest message
 * shown, whenever the page is visible and the reader is at the bottom: on opening, and again
 * as messages arrive; then tells the sidebar. Also says which chat is open while it is.
 * `ready` is false until the chat is known to exist.
 */
export function useReadMarker(ref: ChatRef, readPath: string, items: readonly ChatItem[], atBottom: boolean, ready: boolean): void {
  const marked = useRef<string | null>(null);
  const inFlight = useRef(false);
  // What the page shows now, for a mark that ends after newer messages arrived.
  const now = useRef({ items, atBottom, ready });
  now.current = { items, atBottom, ready };
  const { type, id } = ref;

  useEffect(() => {
    if (!ready) return undefined;
    setOpenChat({ type, id });
    return () => setOpenChat(null);
  }, [type, id, ready]);

  useEffect(() => {
    const mark = (): void => {
      const { items: shown, atBottom: bottom, ready: known } = now.current;
      const newest = shown[shown.length - 1]?.id;
      if (!known || !newest || !bottom || document.visibilityState !== 'visible' || newest === marked.current || inFlight.current) return;
      inFlight.current = true;
      // A failure (a refusal, an outage) is not retried for this message: the next one tries again.
      const done = (read: boolean) => {
        marked.current = newest;
        inFlight.current = false;
        if (read) announceRead({ type, id });
        mark();
      };
      api('PUT', readPath, { message_id: newest }).then(() => done(true), () => done(false));
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [items, atBottom, ready, readPath, type, id]);
}
