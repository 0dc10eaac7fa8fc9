import { redactUrl } from './redact';

describe('redactUrl', () => {
  it('hides tokens wherever they stand in the query', () => {
    expect(redactUrl('/v1/rooms/list?auth_token=abc123&format=xml'))
      .toBe('/v1/rooms/list?auth_token=[REDACTED]&format=xml');
    expect(redactUrl('/v1/rooms/list?format=xml&AUTH_TOKEN=abc'))
      .toBe('/v1/rooms/list?format=xml&AUTH_TOKEN=[REDACTED]');
    expect(redactUrl('/v1/users/create?password=s3cret#x')).toBe('/v1/users/create?password=[REDACTED]#x');
  });

  it('leaves other parameters alone', () => {
    expect(redactUrl('/v1/rooms/show?room_id=my_auth_token=1')).toBe('/v1/rooms/show?room_id=my_auth_token=1');
  });
});
