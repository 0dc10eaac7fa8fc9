/** Small pieces every page uses. */
import { useEffect, useRef, useState } from 'preact/hooks';

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
