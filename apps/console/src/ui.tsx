/** Small pieces every page uses. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import { setPageName } from './title';

/** Names the tab after the page ("Ops – Chat"); every page calls it with its own name. */
export function usePageTitle(name: string): void {
  useEffect(() => setPageName(name), [name]);
}

export function Problem({ text }: { text: string | null }) {
  return text ? <p class="problem" role="alert">{text}</p> : null;
}

export function Status({ text }: { text: string | null }) {
  return <p class="status" role="status" aria-live="polite">{text ?? ''}</p>;
}

/** A date the API gave (ISO 8601, or UNIX seconds) in the reader's locale; '' when none. */
export function when(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '' || value === 0) return '';
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString();
}

/**
 * Runs a change the person asked for: its problem cleared first, and shown (the API's error
 * message) when it fails. Answers whether it succeeded.
 */
export async function attempt(setProblem: (text: string | null) => void, work: () => Promise<unknown>): Promise<boolean> {
  setProblem(null);
  try {
    await work();
    return true;
  } catch (err) {
    setProblem((err as Error).message);
    return false;
  }
}

/**
 * A form that makes something (a room, a token, a webhook, a message): `busy` while its request
 * is in flight, to disable its button, and a second submit meanwhile (a double click, Enter
 * pressed twice) is ignored rather than making the thing twice. The ref, not the state, is the
 * guard: a second click can come before the page has rendered the button disabled.
 */
export function useInFlight(): [boolean, (work: () => Promise<unknown>) => Promise<void>] {
  const flying = useRef(false);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<unknown>) => {
    if (flying.current) return;
    flying.current = true;
    setBusy(true);
    try {
      await work();
    } finally {
      flying.current = false;
      setBusy(false);
    }
  };
  return [busy, run];
}

/**
 * A secret the API answers only once (a new API token, a new webhook's signing secret): shown
 * in a read-only field, selected and focused so it is announced and ready to copy, with a Copy
 * button. Nothing keeps it: leaving the page loses it, as the note says.
 */
export function ShownOnce({ id, heading, note, label, value, what, setStatus }: {
  id: string; heading: string; note: string; label: string; value: string; what: string; setStatus: (text: string) => void;
}) {
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, [value]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setStatus(`${what[0].toUpperCase()}${what.slice(1)} copied.`);
    } catch {
      setStatus(`Copying is not allowed here: select the ${what} and copy it.`);
    }
  };
  return (
    <section class="shown-once" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{heading}</h2>
      <p id={`${id}-note`}>{note}</p>
      <input id={id} readOnly aria-label={label} aria-describedby={`${id}-note`} spellcheck={false} autocomplete="off" value={value} />
      <button type="button" onClick={copy}>Copy {what}</button>
    </section>
  );
}

/** What a confirmation asks: its question names what will happen ("Recover 214 failed deliveries since 10:00?"). */
export interface Confirmation {
  question: string;
  /** More of what will happen, under the question (a list of effects, say). */
  details?: string[];
}

/**
 * Asks before a destructive action: `ask` opens a modal dialog named by its question, with
 * Confirm and Cancel, and answers whether the person confirmed. The browser's modal dialog
 * keeps focus inside it (the page behind is inert) and Escape cancels; focus returns to what had
 * it (the button that asked) when it closes. Render `dialog` once in the page.
 */
export function useConfirm(): [JSX.Element | null, (c: Confirmation) => Promise<boolean>] {
  const [open, setOpen] = useState<Confirmation | null>(null);
  const answer = useRef<((yes: boolean) => void) | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (open && dialog && !dialog.open) dialog.showModal();
  }, [open]);
  const close = (yes: boolean) => {
    ref.current?.close();
    setOpen(null);
    const resolve = answer.current;
    answer.current = null;
    resolve?.(yes);
    opener.current?.focus();
  };
  const ask = (c: Confirmation) => new Promise<boolean>((resolve) => {
    // A second question while one is open (a double click) is answered no: one at a time.
    if (answer.current) return resolve(false);
    opener.current = document.activeElement as HTMLElement | null;
    answer.current = resolve;
    setOpen(c);
  });
  const dialog = open ? (
    <dialog ref={ref} class="confirm" aria-labelledby="confirm-question" aria-describedby={open.details?.length ? 'confirm-details' : undefined}
      onCancel={(e) => { e.preventDefault(); close(false); }}>
      <h2 id="confirm-question">{open.question}</h2>
      {open.details && open.details.length > 0 && <ul id="confirm-details">{open.details.map((d) => <li key={d}>{d}</li>)}</ul>}
      <div class="confirm-actions">
        <button type="button" class="secondary" onClick={() => close(false)}>Cancel</button>
        <button type="button" class="danger" onClick={() => close(true)}>Confirm</button>
      </div>
    </dialog>
  ) : null;
  return [dialog, ask];
}
