/**
 * The console's pages, addressed by the URL's fragment (`#/rooms/12`): the gateway serves
 * one page at `/`, and a reload or a shared link opens the same screen.
 */
export type Route =
  | { page: 'rooms' }
  | { page: 'room'; roomId: number }
  | { page: 'integrations'; roomId: number }
  | { page: 'deliveries'; roomId: number; webhookId: number }
  | { page: 'bridge-deliveries'; roomId: number; bridgeId: number }
  | { page: 'delivery'; roomId: number; webhookId: number; deliveryId: string }
  | { page: 'bridge-delivery'; roomId: number; bridgeId: number; deliveryId: string }
  | { page: 'room-settings'; roomId: number }
  | { page: 'chat'; userId: number }
  | { page: 'tokens' }
  | { page: 'audit' }
  | { page: 'people' }
  | { page: 'invitation'; token: string }
  | { page: 'not-found'; path: string };

const positive = (s: string) => (/^[1-9]\d{0,15}$/.test(s) ? Number(s) : null);
/** A delivery's id (the `webhook-id` its receiver saw): a UUID, or the like; never a path or a query. */
const deliveryIdOf = (s: string | undefined) => (s && /^[A-Za-z0-9_-]{1,100}$/.test(s) ? s : null);
/** An invitation's token as its link carries it (URL-safe base64 or hex). */
const tokenOf = (s: string) => (/^[A-Za-z0-9_-]{16,200}$/.test(s) ? s : null);

/** The route of a location fragment (`#/rooms/12/integrations`); an empty one is the rooms list. */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/\/+$/, '') || '/';
  const parts = path.split('/').filter(Boolean);
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'rooms')) return { page: 'rooms' };
  if (parts.length === 1 && parts[0] === 'tokens') return { page: 'tokens' };
  if (parts.length === 1 && parts[0] === 'audit') return { page: 'audit' };
  if (parts.length === 1 && parts[0] === 'people') return { page: 'people' };
  if (parts.length === 2 && parts[0] === 'chats' && positive(parts[1]) !== null) return { page: 'chat', userId: positive(parts[1])! };
  if (parts.length === 2 && parts[0] === 'invitation' && tokenOf(parts[1]) !== null) return { page: 'invitation', token: parts[1] };
  if (parts[0] === 'rooms' && parts.length >= 2) {
    const roomId = positive(parts[1]);
    if (roomId !== null) {
      if (parts.length === 2) return { page: 'room', roomId };
      if (parts.length === 3 && parts[2] === 'integrations') return { page: 'integrations', roomId };
      if (parts.length === 3 && parts[2] === 'settings') return { page: 'room-settings', roomId };
      const kind = parts[2] === 'integrations' ? parts[3] : undefined;
      const ownerId = (kind === 'webhooks' || kind === 'bridges') && parts.length >= 5 ? positive(parts[4]) : null;
      if (ownerId !== null && parts.length === 5) {
        return kind === 'webhooks' ? { page: 'deliveries', roomId, webhookId: ownerId } : { page: 'bridge-deliveries', roomId, bridgeId: ownerId };
      }
      const deliveryId = ownerId !== null && parts.length === 7 && parts[5] === 'deliveries' ? deliveryIdOf(parts[6]) : null;
      if (deliveryId !== null) {
        return kind === 'webhooks' ? { page: 'delivery', roomId, webhookId: ownerId!, deliveryId } : { page: 'bridge-delivery', roomId, bridgeId: ownerId!, deliveryId };
      }
    }
  }
  return { page: 'not-found', path };
}

/** The fragment that shows a route (what links point at). */
export function hrefOf(route: Route): string {
  switch (route.page) {
    case 'rooms': return '#/rooms';
    case 'room': return `#/rooms/${route.roomId}`;
    case 'integrations': return `#/rooms/${route.roomId}/integrations`;
    case 'deliveries': return `#/rooms/${route.roomId}/integrations/webhooks/${route.webhookId}`;
    case 'bridge-deliveries': return `#/rooms/${route.roomId}/integrations/bridges/${route.bridgeId}`;
    case 'delivery': return `#/rooms/${route.roomId}/integrations/webhooks/${route.webhookId}/deliveries/${route.deliveryId}`;
    case 'bridge-delivery': return `#/rooms/${route.roomId}/integrations/bridges/${route.bridgeId}/deliveries/${route.deliveryId}`;
    case 'room-settings': return `#/rooms/${route.roomId}/settings`;
    case 'chat': return `#/chats/${route.userId}`;
    case 'tokens': return '#/tokens';
    case 'audit': return '#/audit';
    case 'people': return '#/people';
    case 'invitation': return `#/invitation/${route.token}`;
    case 'not-found': return `#${route.path}`;
  }
}
