import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { RoomsClient } from '../../shared/rooms-client';
import { Page, pageOf, pageResponse, probeLimit, splitProbe } from './pagination';

/** The window of a list the rooms service is asked for: one item more than the page holds. */
export interface ListWindow { startIndex: number; limit: number }

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
   * request's other query parameters (`raw`).
   */
  protected async page<T, V>(
    q: { 'start-index': number; 'max-results': number }, raw: Record<string, unknown>, path: string,
    read: (window: ListWindow) => Promise<T[]>, present: (item: T, base: string) => V,
  ): Promise<Page<V>> {
    const page = pageOf(q);
    const { items, hasMore } = splitProbe(await read({ startIndex: page.startIndex, limit: probeLimit(page) }), page);
    return pageResponse(items.map((item) => present(item, this.base)), page, hasMore, `${this.base}${path}`, raw);
  }
}
