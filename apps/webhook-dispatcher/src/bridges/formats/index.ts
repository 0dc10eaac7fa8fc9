import { discord } from './discord';
import { mattermost } from './mattermost';
import { rocketchat } from './rocketchat';
import { slack } from './slack';
import type { PlatformFormat } from './types';

/**
 * Each platform's format, by bridge kind: a room event becomes a BridgeMessage
 * (toBridgeMessage, message.ts) and a run of them the posts of FORMATS[kind].
 */
export const FORMATS: Record<'slack' | 'mattermost' | 'rocketchat' | 'discord', PlatformFormat> = {
  slack,
  mattermost,
  rocketchat,
  discord,
};
