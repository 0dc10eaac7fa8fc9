import type { NotificationColor } from '@app/contracts';

/**
 * The one definition of how HipChat's notification colours look on the platforms: a hex
 * value for those that take one (Slack's purple and gray, Mattermost, Rocket.Chat, Matrix's
 * data-mx-color), its integer for Discord's embed colour, and the names the platforms have.
 * The hex values are HipChat's own palette, slightly deepened to read on light and dark
 * themes alike.
 */
export interface ColorStyle {
  hex: string;
  /** Discord's `embeds[].color`: the RGB value as an integer. */
  int: number;
  /** Slack's attachment colour names (https://api.slack.com/reference/messaging/attachments#fields). */
  slack: 'good' | 'warning' | 'danger' | null;
  /** Teams' container styles (https://adaptivecards.io/explorer/Container.html). */
  teams: 'good' | 'warning' | 'attention' | 'accent' | 'default';
}

const style = (hex: string, slack: ColorStyle['slack'], teams: ColorStyle['teams']): ColorStyle =>
  ({ hex, int: parseInt(hex.slice(1), 16), slack, teams });

export const COLORS: Readonly<Record<NotificationColor, ColorStyle>> = {
  yellow: style('#f2c744', 'warning', 'warning'),
  green: style('#36a64f', 'good', 'good'),
  red: style('#d0343a', 'danger', 'attention'),
  purple: style('#7e57c2', null, 'accent'),
  gray: style('#9e9e9e', null, 'default'),
};
