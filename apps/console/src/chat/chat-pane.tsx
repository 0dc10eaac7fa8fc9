import { useState } from 'preact/hooks';
import type { ChatItem, Emoticons, Person } from '../messages';
import { Status } from '../ui';
import { Composer } from './composer';
import { MessageList } from './message-list';

export type Live = 'connecting' | 'live' | 'reconnecting' | 'unavailable';

const LIVE_TEXT: Record<Live, string> = {
  connecting: 'Connecting…',
  live: 'Live: new messages appear as they are sent.',
  reconnecting: 'Reconnecting…',
  unavailable: 'Live updates are unavailable; reload to try again.',
};

/**
 * A chat as a person reads and writes it, rooms and private chats alike: its history and its
 * composer. Where the chat takes files, one dropped on the history or the composer is the
 * composer's file to share (previewed there before it is sent).
 */
export function ChatPane({ heading, label, items, me, emoticons, people, live, send, share, onBottom }: {
  heading: string;
  label: string;
  items: ChatItem[];
  me: string;
  emoticons: Emoticons;
  people: readonly Person[];
  live: Live;
  send: (message: string) => Promise<unknown>;
  share?: (file: File, message: string) => Promise<unknown>;
  onBottom: (atBottom: boolean) => void;
}) {
  const [follow, setFollow] = useState(0);
  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);
  const carriesFiles = (e: DragEvent) => !!share && !!e.dataTransfer && Array.from(e.dataTransfer.types).includes('Files');
  const over = (e: DragEvent) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    e.dataTransfer!.dropEffect = 'copy';
    setDragging(true);
  };
  const drop = (e: DragEvent) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    setDragging(false);
    const f = e.dataTransfer!.files[0];
    if (f) setFile(f);
  };
  // Sent: the list follows to one's own message, wherever it was scrolled.
  const sent = <T,>(work: Promise<T>) => work.then((r) => (setFollow((n) => n + 1), r));
  return (
    <section aria-labelledby="history-heading" class={`history${dragging ? ' dragging' : ''}`}
      onDragOver={over} onDragEnter={over} onDragLeave={(e) => (e.currentTarget === e.target ? setDragging(false) : undefined)} onDrop={drop}>
      <h2 id="history-heading">{heading}</h2>
      <Status text={LIVE_TEXT[live]} />
      <MessageList items={items} me={me} emoticons={emoticons} label={label} follow={follow} onBottom={onBottom} />
      {dragging && <p class="drop-hint" aria-hidden="true">Drop the file to share it</p>}
      <Composer people={people} send={(m) => sent(send(m))} share={share && ((f, m) => sent(share(f, m)))} file={file} setFile={setFile} />
    </section>
  );
}
