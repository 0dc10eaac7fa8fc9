import { z } from 'zod';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';
import { addonField } from './addon-fields';
import { AddonInstallationView } from './addon-view';

/**
 * Installs an add-on from its descriptor URL, into a room or (no `room`) group-wide: the
 * rooms service fetches and checks the descriptor, creates the installation, its OAuth
 * client and its webhooks, then tells the add-on through its installation callback. It
 * makes two outbound HTTP calls, each bounded by ADDON_HTTP_TIMEOUT_MS.
 */
export const InstallAddonV1 = defineCommand<{ installation: AddonInstallationView }>('addons.install-addon.v1', z.object({
  actor: actorSchema,
  url: addonField.descriptorUrl,
  room: roomRefSchema.optional(),
}), { alone: true });
