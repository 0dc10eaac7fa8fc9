import { discord } from './discord';
import { mattermost } from './mattermost';
import { rocketchat } from './rocketchat';
import { slack } from './slack';
import type { PlatformFormat } from './types';

/** Each platform's format, by bridge kind. */
export const FORMATS: Record<'slack' | 'mattermost' | 'rocketchat' | 'discord', PlatformFormat> = {
  slack,
  mattermost,
  rocketchat,
  discord,
};
