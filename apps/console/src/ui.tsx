/** Small pieces every page uses. */

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
