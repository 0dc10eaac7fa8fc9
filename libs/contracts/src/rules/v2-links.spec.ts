import { deliveryLink, v2Links } from './v2-links';

const BASE = 'https://chat.example.com';
const links = v2Links(BASE);

describe('v2Links', () => {
  it.each([
    ['api', links.api, `${BASE}/v2`],
    ['capabilities', links.capabilities, `${BASE}/v2/capabilities`],
    ['oauthToken', links.oauthToken, `${BASE}/v2/oauth/token`],
    ['rooms', links.rooms, `${BASE}/v2/room`],
    ['room by id', links.room(7), `${BASE}/v2/room/7`],
    ['room by name', links.room('Ops team/α?'), `${BASE}/v2/room/Ops%20team%2F%CE%B1%3F`],
    ['roomStatistics', links.roomStatistics(7), `${BASE}/v2/room/7/statistics`],
    ['members', links.members('Ops'), `${BASE}/v2/room/Ops/member`],
    ['participants', links.participants(7), `${BASE}/v2/room/7/participant`],
    ['history', links.history('a b'), `${BASE}/v2/room/a%20b/history`],
    ['latestHistory', links.latestHistory(7), `${BASE}/v2/room/7/history/latest`],
    ['webhooks', links.webhooks(7), `${BASE}/v2/room/7/webhook`],
    ['webhook', links.webhook(7, 12), `${BASE}/v2/room/7/webhook/12`],
    ['webhookDeliveries', links.webhookDeliveries('Ops', 12), `${BASE}/v2/room/Ops/webhook/12/delivery`],
    ['webhookDeliveryStats', links.webhookDeliveryStats('Ops', 12), `${BASE}/v2/room/Ops/webhook/12/delivery-stats`],
    ['webhookEnable', links.webhookEnable(7, 12), `${BASE}/v2/room/7/webhook/12/enable`],
    ['bridges', links.bridges(7), `${BASE}/v2/room/7/bridge`],
    ['bridge', links.bridge(7, 3), `${BASE}/v2/room/7/bridge/3`],
    ['bridgeDeliveries', links.bridgeDeliveries(7, 3), `${BASE}/v2/room/7/bridge/3/delivery`],
    ['bridgeDeliveryStats', links.bridgeDeliveryStats(7, 3), `${BASE}/v2/room/7/bridge/3/delivery-stats`],
    ['users', links.users, `${BASE}/v2/user`],
    ['user by id', links.user(5), `${BASE}/v2/user/5`],
    ['user by address', links.user('ada@example.com'), `${BASE}/v2/user/ada%40example.com`],
    ['privateLatestHistory', links.privateLatestHistory('@ada'), `${BASE}/v2/user/%40ada/history/latest`],
    ['tokens', links.tokens, `${BASE}/v2/token`],
    ['audit', links.audit, `${BASE}/v2/audit`],
    ['addons', links.addons, `${BASE}/v2/addons`],
    ['addon', links.addon(4), `${BASE}/v2/addons/4`],
    ['emoticons', links.emoticons, `${BASE}/v2/emoticon`],
    ['emoticon', links.emoticon(9), `${BASE}/v2/emoticon/9`],
    ['a delivery under its owner', deliveryLink(links.webhook(7, 12), 'msg_1'), `${BASE}/v2/room/7/webhook/12/delivery/msg_1`],
  ])('%s', (_name, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('with an empty base gives paths (page links and notices that name a route)', () => {
    expect(v2Links('').webhookEnable(7, 12)).toBe('/v2/room/7/webhook/12/enable');
    expect(v2Links('').members('Ops')).toBe('/v2/room/Ops/member');
  });

  it('a room links its members only when private, in the webhook Room object\'s key order', () => {
    expect(JSON.stringify(links.roomLinks({ id: 7, privacy: 'public' }))).toBe(JSON.stringify({
      self: `${BASE}/v2/room/7`, participants: `${BASE}/v2/room/7/participant`, webhooks: `${BASE}/v2/room/7/webhook`,
    }));
    expect(links.roomLinks({ id: 7, privacy: 'private' })).toEqual({
      self: `${BASE}/v2/room/7`, participants: `${BASE}/v2/room/7/participant`, webhooks: `${BASE}/v2/room/7/webhook`,
      members: `${BASE}/v2/room/7/member`,
    });
  });
});
