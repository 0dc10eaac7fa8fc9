import { apiLabel, httpLabels, isEventStream } from './http-metrics';

describe('HTTP metric labels', () => {
  it('take the route template the router matched, never the path', () => {
    expect(httpLabels('POST', '/v2/room/:room/notification', '/v2/room/Secret%20Ops/notification?auth_token=abc', 204)).toEqual({
      http_request_method: 'POST', http_route: '/v2/room/:room/notification', http_response_status_code: '204', api: 'v2',
    });
    expect(httpLabels('GET', '/v1/:resource/:action', '/v1/rooms/message?auth_token=abc', 200).http_route).toBe('/v1/:resource/:action');
  });

  it('name a v1 request by its method when it is one (a bounded set), else by the route', () => {
    const v1 = new Set(['rooms/message', 'rooms/list']);
    expect(httpLabels('GET', '/v1/:resource/:action', '/v1/Rooms/Message?auth_token=abc', 200, v1).http_route).toBe('/v1/rooms/message');
    expect(httpLabels('GET', '/v1/:resource/:action', '/v1/rooms/list/', 200, v1).http_route).toBe('/v1/rooms/list');
    expect(httpLabels('GET', '/v1/:resource/:action', '/v1/rooms/nothing-like-it', 404, v1).http_route).toBe('/v1/:resource/:action');
    expect(httpLabels('GET', '/v1/:resource/:action', '/v1/secret-room-name/x', 404, v1).http_route).toBe('/v1/:resource/:action');
  });

  it('name a request no route matched "unmatched", and an unknown method _OTHER', () => {
    expect(httpLabels('GET', undefined, '/v2/no/such/path', 404)).toMatchObject({ http_route: 'unmatched', api: 'v2' });
    expect(httpLabels('PURGE', undefined, '/anything', 404)).toMatchObject({ http_request_method: '_OTHER', http_route: 'unmatched', api: 'other' });
  });

  it('tell the API from the first path segment, whatever its case', () => {
    expect(apiLabel('/v1/rooms/list')).toBe('v1');
    expect(apiLabel('/V2/room')).toBe('v2');
    expect(apiLabel('/')).toBe('console');
    expect(apiLabel('/assets/app-1234.js')).toBe('console');
    expect(apiLabel('/health')).toBe('other');
    expect(apiLabel('/docs/api/v2')).toBe('other');
    expect(apiLabel('/v2x/room')).toBe('other');
  });

  it('tell a live stream by its content type, whatever the charset', () => {
    const res = (type: unknown) => ({ getHeader: (name: string) => (name === 'content-type' ? type : undefined) });
    expect(isEventStream(res('text/event-stream; charset=utf-8'))).toBe(true);
    expect(isEventStream(res('text/event-stream'))).toBe(true);
    expect(isEventStream(res('application/json'))).toBe(false);
    expect(isEventStream(res(undefined))).toBe(false);
  });
});
