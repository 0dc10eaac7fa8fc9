import type { NotificationColor } from '@app/contracts';

/**
 * HipChat's notification colours as hex, for the platforms that take a colour value
 * (Matrix `data-mx-color`; Slack, Mattermost and Rocket.Chat attachments). The shades are
 * Atlassian's AUI palette, which HipChat's own clients drew from, so a red build reads as
 * the same red everywhere. Matrix clients accept only `#rrggbb` (the spec's
 * `data-mx-color` is "a 6-digit hex colour"), hence lower-case six-digit values.
 */
export const HIPCHAT_COLOR_HEX: Readonly<Record<NotificationColor, string>> = {
  yellow: '#f6c342',
  green: '#14892c',
  red: '#d04437',
  purple: '#654982',
  gray: '#707070',
};
