import { z } from 'zod';
import { defineCommand } from '../define-command';
import { actorSchema } from '../refs';
import { addonField } from './addon-fields';
import { AddonInstallationView } from './addon-view';

/** Installations in id order (`GET /v2/addons`); reads `limit` rows from `startIndex`. */
export const ListAddonsV1 = defineCommand<{ installations: AddonInstallationView[] }>('addons.list-addons.v1', z.object({
  actor: actorSchema,
  startIndex: z.number().int().min(0),
  limit: z.number().int().min(1).max(1001),
}), { query: true });

export const GetAddonV1 = defineCommand<{ installation: AddonInstallationView }>('addons.get-addon.v1', z.object({
  actor: actorSchema,
  id: addonField.installationId,
}), { query: true });
