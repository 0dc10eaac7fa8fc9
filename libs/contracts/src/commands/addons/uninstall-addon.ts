import { z } from 'zod';
import { defineCommand } from '../define-command';
import { actorSchema } from '../refs';
import { addonField } from './addon-fields';

/**
 * Removes an installation, its webhooks and its OAuth client, and revokes its tokens
 * (answered once the revocations are on the broker), then tells the add-on with
 * `DELETE {callbackUrl}/{oauthId}` (best effort).
 */
export const UninstallAddonV1 = defineCommand<Record<string, never>>('addons.uninstall-addon.v1', z.object({
  actor: actorSchema,
  id: addonField.installationId,
}), { alone: true });
