import { boundedLabel, httpMethodLabel, OTHER, statusCodeLabel } from './labels';

describe('metric labels', () => {
  it('keep the HTTP methods OpenTelemetry names, and fold any other into _OTHER', () => {
    expect(httpMethodLabel('GET')).toBe('GET');
    expect(httpMethodLabel('PATCH')).toBe('PATCH');
    expect(httpMethodLabel('PURGE')).toBe(OTHER);
    expect(httpMethodLabel('get')).toBe(OTHER);
    expect(httpMethodLabel(undefined)).toBe(OTHER);
  });

  it('keep status codes 100-599 only', () => {
    expect(statusCodeLabel(200)).toBe('200');
    expect(statusCodeLabel(599)).toBe('599');
    expect(statusCodeLabel(0)).toBe(OTHER);
    expect(statusCodeLabel(1000)).toBe(OTHER);
  });

  it('keep a value from its list, never another', () => {
    const events = ['room_message', 'room_notification'];
    expect(boundedLabel('room_message', events)).toBe('room_message');
    expect(boundedLabel('Ops room', events)).toBe(OTHER);
    expect(boundedLabel(undefined, new Set(events))).toBe(OTHER);
  });
});
