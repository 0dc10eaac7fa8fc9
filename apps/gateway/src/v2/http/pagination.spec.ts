import { pageResponse, splitProbe } from './pagination';

describe('pageResponse', () => {
  const self = 'http://h/v2/room';

  it('links the next page when the service found more, keeping the other parameters but never the token', () => {
    const page = pageResponse([1, 2], { startIndex: 0, maxResults: 2 }, true, self, { 'include-archived': 'true', auth_token: 'secret' });
    expect(page).toEqual({ items: [1, 2], startIndex: 0, maxResults: 2, links: { self, next: 'http://h/v2/room?include-archived=true&start-index=2&max-results=2' } });
  });

  it('links the previous page from a later one, never before 0', () => {
    const page = pageResponse([], { startIndex: 1, maxResults: 5 }, false, self);
    expect(page.links).toEqual({ self, prev: 'http://h/v2/room?start-index=0&max-results=5' });
  });

  it('links no page from a page of max-results=0: each would be itself, and a client following next would never stop', () => {
    expect(pageResponse([], { startIndex: 5, maxResults: 0 }, true, self).links).toEqual({ self });
  });

  it('links the next page by its cursor as well as its start-index, and no other link by the request\'s cursor', () => {
    const cursor = { param: 'after', next: 'Y3Vyc29y' };
    const page = pageResponse([1, 2], { startIndex: 4, maxResults: 2 }, true, self, { after: 'b2xk', status: 'failed' }, cursor);
    expect(page.links).toEqual({
      self,
      prev: 'http://h/v2/room?status=failed&start-index=2&max-results=2',
      next: 'http://h/v2/room?status=failed&start-index=6&max-results=2&after=Y3Vyc29y',
    });
    // No cursor for the next page (a service that gives none): start-index alone, not the request's cursor.
    expect(pageResponse([1], { startIndex: 0, maxResults: 1 }, true, self, { after: 'b2xk' }, { param: 'after' }).links.next)
      .toBe('http://h/v2/room?start-index=1&max-results=1');
  });

  it('splits the probe row off', () => {
    expect(splitProbe([1, 2, 3], { startIndex: 0, maxResults: 2 })).toEqual({ items: [1, 2], hasMore: true });
    expect(splitProbe([1, 2], { startIndex: 0, maxResults: 2 })).toEqual({ items: [1, 2], hasMore: false });
  });
});
