import { NOTIFICATION_COLORS, NotificationColor } from '@app/contracts';

/** The colour to store: `random` resolves to one of the five colours. */
export function resolveColor(asked: NotificationColor | 'random', random: () => number = Math.random): NotificationColor {
  if (asked !== 'random') return asked;
  return NOTIFICATION_COLORS[Math.floor(random() * NOTIFICATION_COLORS.length) % NOTIFICATION_COLORS.length];
}
