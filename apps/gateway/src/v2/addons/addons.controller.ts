import { Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Actor, GetAddonV1, InstallAddonV1, ListAddonsV1, UninstallAddonV1, v2Links } from '@app/contracts';
import { RequireScopes, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor } from '../http/v2-request';
import { V2Resource } from '../http/v2-resource';
import { V2Body, V2Query } from '../http/validation';
import { toV2Addon, toV2CreatedAddon } from './addons.presenter';
import { addonIdOf, InstallAddonBody, installAddonBody, ListAddonsQuery, listAddonsQuery } from './addons.schemas';

/**
 * `/v2/addons`: installing an add-on from its descriptor URL (the rooms service fetches it
 * and calls the add-on back, within ADDON_HTTP_TIMEOUT_MS per call), listing and removing them.
 */
@V2Controller('addons')
export class AddonsController extends V2Resource {
  @Post()
  @Summary('Install an add-on from its descriptor URL, into a room or group-wide')
  @HttpCode(201)
  @RequireScopes('admin_group')
  async install(@V2Body(installAddonBody) b: InstallAddonBody, @CurrentActor() actor: Actor) {
    const { installation } = await this.rooms.send(InstallAddonV1, { actor, url: b.url, ...(b.room ? { room: b.room } : {}) });
    return toV2CreatedAddon(installation, this.base);
  }

  @Get()
  @Summary('List installed add-ons')
  @RequireScopes('admin_group')
  list(@V2Query(listAddonsQuery) q: ListAddonsQuery, @Query() raw: Record<string, unknown>, @CurrentActor() actor: Actor) {
    return this.page(q, raw, v2Links('').addons, async (w) => (await this.rooms.send(ListAddonsV1, { actor, ...w })).installations, toV2Addon);
  }

  @Get(':id')
  @Summary('Get an installed add-on')
  @RequireScopes('admin_group')
  async get(@Param('id') id: string, @CurrentActor() actor: Actor) {
    const { installation } = await this.rooms.send(GetAddonV1, { actor, id: addonIdOf(id) });
    return toV2Addon(installation, this.base);
  }

  @Delete(':id')
  @Summary('Uninstall an add-on (its webhooks and tokens go with it)')
  @HttpCode(204)
  @RequireScopes('admin_group')
  async uninstall(@Param('id') id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(UninstallAddonV1, { actor, id: addonIdOf(id) });
  }
}
