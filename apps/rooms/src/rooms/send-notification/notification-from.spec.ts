import { notificationFrom } from './send-notification.usecase';

describe('notificationFrom', () => {
  it('prefers the given from, then the user, then the label', () => {
    expect(notificationFrom('Deploy Bot', 'Ada', 'token')).toBe('Deploy Bot');
    expect(notificationFrom(undefined, 'Ada', 'token')).toBe('Ada');
    expect(notificationFrom('', null, 'My Add-on')).toBe('My Add-on');
    expect(notificationFrom(undefined, null, '')).toBe('API');
  });

  it('fits the stored column (64 characters)', () => {
    expect(notificationFrom(undefined, null, '\u{1F600}'.repeat(100))).toBe('\u{1F600}'.repeat(64));
  });
});
