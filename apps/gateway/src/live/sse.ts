/**
 * Server-Sent Events framing (the HTML standard's `text/event-stream`): plain text, one
 * field a line, a blank line ending each event. A line break inside a value would end the
 * field, so values are split into one `data:` line each (EventSource joins them with
 * "\n"); ids and event names may not contain one at all.
 */
export interface SseEvent {
  id?: string | number;
  event?: string;
  data: string;
}

export function sseEvent(e: SseEvent): string {
  let frame = '';
  if (e.id !== undefined) frame += `id: ${oneLine(String(e.id), 'id')}\n`;
  if (e.event !== undefined) frame += `event: ${oneLine(e.event, 'event')}\n`;
  for (const line of e.data.split(/\r\n|\r|\n/)) frame += `data: ${line}\n`;
  return `${frame}\n`;
}

/** A comment line: ignored by clients, it keeps an idle connection alive through proxies. */
export function sseComment(text = ''): string {
  return `:${text.split(/\r\n|\r|\n/).join(' ')}\n\n`;
}

function oneLine(value: string, field: string): string {
  if (/[\r\n]/.test(value)) throw new TypeError(`an SSE ${field} may not contain a line break`);
  return value;
}
