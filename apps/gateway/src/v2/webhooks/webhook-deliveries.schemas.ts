import { deliveryField } from '@app/contracts';
import { z, ZodTypeAny } from 'zod';
import { pageQuery } from '../http/pagination';
import { cursorParam } from './delivery-cursor';

/** A query parameter given empty counts as absent (as everywhere in v2). */
const optionalParam = <S extends ZodTypeAny>(schema: S) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** GET .../webhook/{id}/delivery: the page, and the filters, each with the delivery log's rule (a 400 naming it). */
export const deliveryListQuery = z.object({
  ...pageQuery,
  status: optionalParam(deliveryField.status),
  event: optionalParam(deliveryField.event),
  since: optionalParam(deliveryField.instant),
  after: optionalParam(cursorParam).describe(
    'Where the page starts: after the delivery this cursor names (links.next carries it, opaque; pass it back as given). '
    + 'Pages followed by it show each delivery once, however many arrive meanwhile, and cost the same however deep. '
    + 'start-index is then only echoed as the page\'s startIndex; without after, start-index alone places the page, as before.',
  ),
});
export type DeliveryListQuery = z.output<typeof deliveryListQuery>;

/** The filters a list command carries: only those given. */
export const filtersOf = (q: DeliveryListQuery) => ({
  ...(q.status !== undefined ? { status: q.status } : {}),
  ...(q.event !== undefined ? { event: q.event } : {}),
  ...(q.since !== undefined ? { since: q.since } : {}),
});

/** Where a list command's page starts, besides its start-index: after the cursor's delivery, when given. */
export const cursorOf = (q: DeliveryListQuery) => (q.after !== undefined ? { after: q.after } : {});

/** POST .../webhook/{id}/recover: from when failed deliveries are sent again (not in the future). */
export const recoverBody = z.object({ since: deliveryField.pastInstant });
export type RecoverBody = z.output<typeof recoverBody>;
