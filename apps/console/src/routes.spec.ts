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
    ['#/people', { page: 'people' }],
    ['#/chats/7', { page: 'chat', userId: 7 }],
    ['#/rooms/12/settings', { page: 'room-settings', roomId: 12 }],
    ['#/rooms/12/integrations/webhooks/7/deliveries/0b7c2a1e-5d0e-4b8e-9d3c-1f2a3b4c5d6e',
      { page: 'delivery', roomId: 12, webhookId: 7, deliveryId: '0b7c2a1e-5d0e-4b8e-9d3c-1f2a3b4c5d6e' }],
    ['#/rooms/12/integrations/bridges/8/deliveries/msg_2aB', { page: 'bridge-delivery', roomId: 12, bridgeId: 8, deliveryId: 'msg_2aB' }],
    ['#/invitation/Zm9vYmFyYmF6cXV4cXV1eA', { page: 'invitation', token: 'Zm9vYmFyYmF6cXV4cXV1eA' }],
  ])('%s is %j, and links back to itself', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
    expect(parseRoute(hrefOf(route))).toEqual(route);
  });

  it.each(['#/rooms/0', '#/rooms/abc', '#/rooms/12/nothing', '#/rooms/1/integrations/webhooks/x', '#/rooms/1/integrations/bridges/0', '#/elsewhere', '#/rooms/-1',
    '#/chats/0', '#/chats/ann', '#/rooms/1/settings/x', '#/rooms/1/integrations/webhooks/2/deliveries/a%2Fb', '#/rooms/1/integrations/webhooks/2/deliveries',
    '#/invitation/short', '#/invitation/has.dots.in.it.here.x', '#/people/1'])(
    '%s is not a page', (hash) => {
      expect(parseRoute(hash).page).toBe('not-found');
    });
});
