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
  | { page: 'tokens' }
  | { page: 'audit' }
  | { page: 'not-found'; path: string };

const positive = (s: string) => (/^[1-9]\d{0,15}$/.test(s) ? Number(s) : null);

/** The route of a location fragment (`#/rooms/12/integrations`); an empty one is the rooms list. */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/\/+$/, '') || '/';
  const parts = path.split('/').filter(Boolean);
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'rooms')) return { page: 'rooms' };
  if (parts.length === 1 && parts[0] === 'tokens') return { page: 'tokens' };
  if (parts.length === 1 && parts[0] === 'audit') return { page: 'audit' };
  if (parts[0] === 'rooms' && parts.length >= 2) {
    const roomId = positive(parts[1]);
    if (roomId !== null) {
      if (parts.length === 2) return { page: 'room', roomId };
      if (parts.length === 3 && parts[2] === 'integrations') return { page: 'integrations', roomId };
      const webhookId = parts.length === 5 && parts[2] === 'integrations' && parts[3] === 'webhooks' ? positive(parts[4]) : null;
      if (webhookId !== null) return { page: 'deliveries', roomId, webhookId };
      const bridgeId = parts.length === 5 && parts[2] === 'integrations' && parts[3] === 'bridges' ? positive(parts[4]) : null;
      if (bridgeId !== null) return { page: 'bridge-deliveries', roomId, bridgeId };
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
    case 'tokens': return '#/tokens';
    case 'audit': return '#/audit';
    case 'not-found': return `#${route.path}`;
  }
}
