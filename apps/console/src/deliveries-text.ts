/** How the deliveries' pages word and show what the API answers: plain functions, tested beside. */

/** What a trend says to a screen reader ("Deliveries in the last 24 hours: 120 delivered, 3 failed"). */
export function trendName(totals: { delivered: number; retried: number; failed: number }): string {
  const retried = totals.retried > 0 ? `, ${totals.retried} retried` : '';
  return `Deliveries in the last 24 hours: ${totals.delivered} delivered${retried}, ${totals.failed} failed`;
}

/** "10:00" today, "28 Nov, 10:00" another day: how a confirmation names a time. */
export function shortTime(date: Date, now = new Date()): string {
  const time = date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return date.toDateString() === now.toDateString() ? time : `${date.toLocaleDateString([], { day: 'numeric', month: 'short' })}, ${time}`;
}

/**
 * The URL as a reader should see it: each query value masked (the query may carry the
 * attempt's JWT, `signed_request`, or an add-on framework's token). The API masks it already;
 * this keeps the page safe to show whatever it is given.
 */
export function maskedQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url.slice(at + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    return eq < 0 ? pair : `${pair.slice(0, eq)}=***`;
  });
  return `${url.slice(0, at)}?${query.join('&')}`;
}

/**
 * Headers whose values are credentials or signatures: shown by their first characters only. The
 * API cuts them short already (a value ending in …); this keeps the page safe whatever it is given.
 */
const SHORTENED = /signature|authorization|jwt|token/i;
const KEEP = 12;

export function shownHeader(name: string, value: string): string {
  return SHORTENED.test(name) && !value.endsWith('…') && value.length > KEEP ? `${value.slice(0, KEEP)}…` : value;
}

const indented = (text: string): string | null => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return null;
  }
};

/**
 * A body as sent: JSON indented; a bridge's posts (one JSON body a line) each indented, a blank
 * line between; anything else as it is.
 */
export function prettyBody(body: string): string {
  const whole = indented(body);
  if (whole !== null) return whole;
  const lines = body.split('\n').filter((l) => l.trim() !== '');
  const each = lines.map(indented);
  return lines.length > 1 && each.every((l) => l !== null) ? each.join('\n\n') : body;
}

