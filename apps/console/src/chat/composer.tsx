import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { completeMention, mentionCandidates, mentionQueryAt, Person } from '../messages';
import { attempt, Problem, useInFlight } from '../ui';
import { sizeOf } from './message-list';

/**
 * What a chat's composer writes a message with: its text, @mentions completed from the chat's
 * people (an ARIA combobox: arrows move, Enter or Tab picks, Escape closes), and, where the chat
 * can take files, one file to share with it, previewed (an image as itself) before it is sent.
 */
export function Composer({ people, send, share, file, setFile }: {
  people: readonly Person[];
  send: (message: string) => Promise<unknown>;
  /** Shares the file with the message (absent: the chat takes no files). */
  share?: (file: File, message: string) => Promise<unknown>;
  file: File | null;
  setFile: (file: File | null) => void;
}) {
  const [message, setMessage] = useState('');
  const [busy, whileSending] = useInFlight();
  const [problem, setProblem] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  // The @name being typed (null: none, or closed by Escape until the next keystroke).
  const [query, setQuery] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const candidates = useMemo(() => (query ? mentionCandidates(query.query, people) : []), [query, people]);
  const open = candidates.length > 0;

  const typed = (input: HTMLInputElement) => {
    setMessage(input.value);
    setQuery(mentionQueryAt(input.value, input.selectionStart ?? input.value.length));
    setActive(0);
  };
  const pick = (person: Person) => {
    const input = field.current;
    if (!input || !query) return;
    const done = completeMention(message, query.start, input.selectionStart ?? message.length, person);
    // The field's text and caret are set now, not after the next render: a person who types on
    // at once must not have the caret moved back under the letters they have typed since.
    input.value = done.text;
    input.setSelectionRange(done.caret, done.caret);
    input.focus();
    setMessage(done.text);
    setQuery(null);
  };
  const keyDown = (e: KeyboardEvent) => {
    if (!open) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + candidates.length) % candidates.length);
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      pick(candidates[Math.min(active, candidates.length - 1)]);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      setQuery(null);
    }
  };

  const submit = (e: Event) => {
    e.preventDefault();
    if (!message.trim() && !file) return;
    return whileSending(() => attempt(setProblem, async () => {
      if (file && share) await share(file, message.trim());
      else await send(message);
      setMessage('');
      setFile(null);
      setQuery(null);
    }));
  };
  const chosen = (input: HTMLInputElement) => {
    const f = input.files?.[0];
    if (f) setFile(f);
    input.value = '';
    field.current?.focus();
  };

  return (
    <form class="composer" onSubmit={submit}>
      {file && <PendingFile file={file} onRemove={() => { setFile(null); field.current?.focus(); }} />}
      <div class="composer-row">
        <label for="message">Message</label>
        <div class="combo">
          <input id="message" ref={field} autocomplete="off" maxLength={10000} value={message}
            placeholder={file ? 'A message with the file (optional)' : undefined}
            role="combobox" aria-autocomplete="list" aria-expanded={open} aria-controls="mention-options"
            aria-activedescendant={open ? `mention-option-${candidates[active]?.id}` : undefined}
            onInput={(e) => typed(e.currentTarget)} onKeyDown={keyDown} onBlur={() => setQuery(null)} />
          <ul id="mention-options" role="listbox" aria-label="People to mention" class="mention-options" hidden={!open}>
            {candidates.map((p, i) => (
              <li key={p.id} id={`mention-option-${p.id}`} role="option" aria-selected={i === active}
                onMouseDown={(e) => { e.preventDefault(); pick(p); }}>
                {p.name} <span class="muted">@{p.mention_name}</span>
              </li>
            ))}
          </ul>
        </div>
        {share && (
          <>
            <button type="button" class="secondary" onClick={() => picker.current?.click()}>Share file</button>
            <input ref={picker} type="file" hidden tabIndex={-1} onChange={(e) => chosen(e.currentTarget)} />
          </>
        )}
        <button type="submit" disabled={busy}>Send</button>
      </div>
      <Problem text={problem} />
    </form>
  );
}

/** The file about to be shared: an image previewed as itself, anything else by name and size. */
function PendingFile({ file, onRemove }: { file: File; onRemove: () => void }) {
  const image = file.type.startsWith('image/');
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!image) return undefined;
    const u = URL.createObjectURL(file);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [file]);
  return (
    <div class="pending-file" role="group" aria-label="File to share">
      {image && url && <img src={url} alt={`Preview of ${file.name}`} />}
      <span><span class="name">{file.name}</span> <span class="muted">({sizeOf(file.size)})</span></span>
      <button type="button" class="secondary" onClick={onRemove}>Remove file</button>
    </div>
  );
}
