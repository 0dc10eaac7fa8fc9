import { hrefOf, parseRoute, Route } from './routes';

describe('console routes', () => {
  it.each<[string, Route]>([
    ['', { page: 'rooms' }],
    ['#/', { page: 'rooms' }],
    ['#/rooms', { page: 'rooms' }],
    ['#/rooms/', { page: 'rooms' }],
    ['#/rooms/12', { page: 'room', roomId: 12 }],
    ['#/rooms/12/integrations', { page: 'integrations', roomId: 12 }],
    ['#/rooms/12/integrations/webhooks/7', { page: 'deliveries', roomId: 12, webhookId: 7 }],
    ['#/rooms/12/integrations/bridges/8', { page: 'bridge-deliveries', roomId: 12, bridgeId: 8 }],
    ['#/tokens', { page: 'tokens' }],
    ['#/audit', { page: 'audit' }],
  ])('%s is %j, and links back to itself', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
    expect(parseRoute(hrefOf(route))).toEqual(route);
  });

  it.each(['#/rooms/0', '#/rooms/abc', '#/rooms/12/nothing', '#/rooms/1/integrations/webhooks/x', '#/rooms/1/integrations/bridges/0', '#/elsewhere', '#/rooms/-1'])(
    '%s is not a page', (hash) => {
      expect(parseRoute(hash).page).toBe('not-found');
    });
});
