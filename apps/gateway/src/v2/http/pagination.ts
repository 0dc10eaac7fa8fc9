import { MAX_ID } from '@app/contracts';
import { z } from 'zod';
import { queryInt } from './validation';

export const MAX_RESULTS_DEFAULT = 100;
export const MAX_RESULTS_LIMIT = 1000;

/** `start-index` and `max-results` of every v2 list. */
export const pageQuery = {
  'start-index': queryInt(0, 0, MAX_ID),
  'max-results': queryInt(MAX_RESULTS_DEFAULT, 0, MAX_RESULTS_LIMIT),
};

/** The query of a list that takes nothing but its page. */
export const pageListQuery = z.object(pageQuery);
export type PageListQuery = z.output<typeof pageListQuery>;

export interface PageRequest { startIndex: number; maxResults: number }

export const pageOf = (q: { 'start-index': number; 'max-results': number }): PageRequest =>
  ({ startIndex: q['start-index'], maxResults: q['max-results'] });

/** The shape of a list answer whose items are `item`, for the OpenAPI document. */
export const pageSchema = (item: z.ZodTypeAny) => z.object({
  items: z.array(item),
  startIndex: z.number().int(),
  maxResults: z.number().int(),
  links: z.object({ self: z.string(), prev: z.string().optional(), next: z.string().optional() }),
});

export interface Page<T> {
  items: T[];
  startIndex: number;
  maxResults: number;
  links: { self: string; prev?: string; next?: string };
}

/**
 * A keyset cursor of a list: the query parameter that carries it, and its value for the page
 * after this one (absent: `next` links by start-index alone).
 */
export interface PageCursor { param: string; next?: string }

/**
 * A v2 list answer. `hasMore`: the service found an item past this page (it reads one more
 * than asked). Links keep the request's other parameters, without its token. A page of
 * `max-results=0` links nowhere: its next and previous pages would be itself, and a client
 * following `next` would never stop. With a `cursor`, `next` also carries the cursor of the
 * page after this one; no other link carries the request's (`prev` is by start-index).
 */
export function pageResponse<T>(
  items: T[], page: PageRequest, hasMore: boolean, selfUrl: string, query: Record<string, unknown> = {}, cursor?: PageCursor,
): Page<T> {
  const link = (startIndex: number, after?: string) => {
    const url = new URL(selfUrl);
    for (const [k, v] of Object.entries(query)) {
      if (k === 'auth_token' || k === 'start-index' || k === 'max-results' || k === cursor?.param || typeof v !== 'string') continue;
      url.searchParams.set(k, v);
    }
    url.searchParams.set('start-index', String(startIndex));
    url.searchParams.set('max-results', String(page.maxResults));
    if (cursor && after !== undefined) url.searchParams.set(cursor.param, after);
    return url.toString();
  };
  return {
    items,
    startIndex: page.startIndex,
    maxResults: page.maxResults,
    links: {
      self: selfUrl,
      ...(page.startIndex > 0 && page.maxResults > 0 ? { prev: link(Math.max(0, page.startIndex - page.maxResults)) } : {}),
      ...(hasMore && page.maxResults > 0 ? { next: link(page.startIndex + page.maxResults, cursor?.next) } : {}),
    },
  };
}

/** Reads one more item than the page holds: whether a next page exists, without counting. */
export const probeLimit = (page: PageRequest): number => page.maxResults + 1;

export function splitProbe<T>(rows: T[], page: PageRequest): { items: T[]; hasMore: boolean } {
  return { items: rows.slice(0, page.maxResults), hasMore: rows.length > page.maxResults };
}
