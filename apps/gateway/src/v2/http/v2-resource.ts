import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { RoomsClient } from '../../shared/rooms-client';
import { Page, pageOf, pageResponse, probeLimit, splitProbe } from './pagination';

/** The window of a list the rooms service is asked for: one item more than the page holds. */
export interface ListWindow { startIndex: number; limit: number }

/** A list paged by a keyset cursor as well: its query parameter, and the cursor after an item. */
export interface ListCursor<T> { param: string; after: (item: T) => string | undefined }

/**
 * What the v2 resource controllers share: the rooms service their handlers send commands
 * to, the public base URL their links start with, and how a list is answered a page at a time.
 */
@Injectable()
export abstract class V2Resource {
  protected readonly base: string;

  constructor(protected readonly rooms: RoomsClient, @Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.base = config.PUBLIC_BASE_URL;
  }

  /**
   * One page of a list at `path` (under the base URL): `read` gets one item more than the
   * page holds, to know whether a next page exists without counting; the links keep the
   * request's other query parameters (`raw`). With a `cursor`, `next` carries the cursor
   * after the page's last item as well as its start-index.
   */
  protected async page<T, V>(
    q: { 'start-index': number; 'max-results': number }, raw: Record<string, unknown>, path: string,
    read: (window: ListWindow) => Promise<T[]>, present: (item: T, base: string) => V, cursor?: ListCursor<T>,
  ): Promise<Page<V>> {
    const page = pageOf(q);
    const { items, hasMore } = splitProbe(await read({ startIndex: page.startIndex, limit: probeLimit(page) }), page);
    const last = items[items.length - 1];
    const next = cursor ? { param: cursor.param, next: last === undefined ? undefined : cursor.after(last) } : undefined;
    return pageResponse(items.map((item) => present(item, this.base)), page, hasMore, `${this.base}${path}`, raw, next);
  }
}
