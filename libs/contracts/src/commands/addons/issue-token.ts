import { z } from 'zod';
import type { V2Scope } from '../tokens/resolve-token';
import { defineCommand } from '../define-command';
import { addonField } from './addon-fields';

/** Lifetime of an add-on's access token (frameworks cache it for `expires_in - 60` seconds). */
export const ADDON_TOKEN_TTL_SECONDS = 3600;

export interface IssuedAddonToken {
  /** The clear token: the only time it exists (its hash is stored). */
  accessToken: string;
  expiresIn: number;
  /** The scopes the token acts with (admin_group left out when it is confined to a room). */
  scopes: V2Scope[];
  groupId: number;
  groupName: string;
}

/**
 * OAuth client credentials grant (`POST /v2/oauth/token`): the client's secret is checked,
 * and an add-on token is issued with the scopes asked for (default: every scope the
 * descriptor asked for), acting only on the installation's room when it has one.
 */
export const IssueAddonTokenV1 = defineCommand<IssuedAddonToken>('addons.issue-token.v1', z.object({
  clientId: addonField.oauthClientId,
  clientSecret: z.string().min(1).max(200),
  /** Absent: every scope the client may have. */
  scopes: z.array(z.string().max(100)).max(50).optional(),
}));
