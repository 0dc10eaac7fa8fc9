import type { BridgeKind } from '@app/contracts';
import { discord } from './discord';
import { googlechat } from './googlechat';
import { matrix } from './matrix';
import { mattermost } from './mattermost';
import { rocketchat } from './rocketchat';
import { slack } from './slack';
import { teams } from './teams';
import type { PlatformFormat } from './types';

/**
 * Each platform's format, by bridge kind: a room event becomes a BridgeMessage
 * (toBridgeMessage, message.ts) and a run of them the posts of FORMATS[kind].
 */
export const FORMATS: Readonly<Record<BridgeKind, PlatformFormat>> = {
  slack,
  mattermost,
  rocketchat,
  discord,
  teams,
  googlechat,
  matrix,
};
