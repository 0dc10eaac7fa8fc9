import { Inject, Injectable } from '@nestjs/common';
import { APP_LOGGER, AppLogger, CommandMeta, SecretBox, secretPurpose } from '@app/common';
import { commandFailure, InstallAddonV1, ReplyOf, RequestOf, WebhookRegistrationsChangedV1 } from '@app/contracts';
import { DataSource } from 'typeorm';
import { RoomsConfig } from '../../config';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { RoomRepository } from '../../rooms/room.repository';
import { PresentationContext } from '../../shared/presentation';
import { AddonCalls } from '../addon-calls';
import { AddonRemoval } from '../addon-removal';
import { capabilitiesUrlOf, installationBody, newOAuthClient } from '../addon-rules';
import { AddonRepository, AlreadyInstalled } from '../addon.repository';
import { checkDescriptor } from '../descriptor';
import { PRESENTATION, ROOMS_CONFIG } from '../../shared/infrastructure.module';
import { AuditRepository } from '../../audit/audit.repository';

/**
 * Installs an add-on: fetches its descriptor and checks it (no transaction open during
 * HTTP; both URLs https unless inside WEBHOOK_ALLOWED_NETWORKS), then in one transaction creates the installation, its OAuth client and its
 * webhooks, committed before the callback (frameworks request a token while handling it);
 * then POSTs the installation to the add-on, with our capabilities document's URL (where
 * frameworks find the token URL). A refused callback removes it all again.
 */
@Injectable()
export class InstallAddon {
  constructor(
    private readonly db: DataSource,
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly addons: AddonRepository,
    private readonly removal: AddonRemoval,
    private readonly calls: AddonCalls,
    @Inject(ROOMS_CONFIG) private readonly config: RoomsConfig,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    private readonly audit: AuditRepository,
    private readonly box: SecretBox,
  ) {}

  async execute(cmd: RequestOf<typeof InstallAddonV1>, meta: CommandMeta): Promise<ReplyOf<typeof InstallAddonV1>> {
    const room = cmd.room ? await this.rooms.findForActor(this.db.manager, cmd.room, cmd.actor) : null;
    if (!room && cmd.actor.roomId !== undefined) {
      throw commandFailure('forbidden', 'not_allowed', 'room', { message: 'A token confined to one room cannot install an add-on group-wide.' });
    }

    const fetched = await this.calls.fetchDescriptor(cmd.url);
    if (!fetched.ok && fetched.httpsRequired) throw commandFailure('invalid', 'rule', 'url', { problem: fetched.problem });
    if (!fetched.ok) {
      throw commandFailure('invalid', 'addon_descriptor_invalid', 'url', { url: cmd.url, problem: `could not be fetched: ${fetched.problem}` });
    }
    const check = checkDescriptor(fetched.json, {
      inRoom: room !== null, maxWebhooks: this.config.WEBHOOKS_PER_ROOM_MAX, allowedNetworks: this.config.WEBHOOK_ALLOWED_NETWORKS,
    });
    if (!check.ok) throw commandFailure('invalid', 'addon_descriptor_invalid', 'url', { url: cmd.url, problem: check.problems.join('; ') });
    const descriptor = check.descriptor;
    // Refused now rather than after installing: the callback is where the OAuth secret goes.
    const callbackRefused = await this.calls.callbackRefusal(descriptor.callbackUrl);
    if (callbackRefused?.httpsRequired) {
      throw commandFailure('invalid', 'addon_descriptor_invalid', 'url', {
        url: cmd.url, problem: `capabilities.installable.callbackUrl: ${callbackRefused.problem}`,
      });
    }
    if (callbackRefused) throw commandFailure('invalid', 'addon_callback_failed', 'url', { url: descriptor.callbackUrl, problem: callbackRefused.problem });

    const client = newOAuthClient();
    const roomId = room?.id ?? null;
    const capabilitiesUrl = capabilitiesUrlOf(this.ctx.baseUrl);
    // Applied at most once by the unique (key, room) index rather than by command id: a
    // redelivered install finds it installed instead of replaying a reply without the add-on's answer.
    const created = await this.uow.apply({ ...meta, commandId: '', redelivered: false }, async ({ manager: m, emit }) => {
      if (roomId !== null) await this.rooms.findByRef(m, { id: roomId }, 'share');
      try {
        const inserted = await this.addons.insertInstallation(m, {
          descriptor, raw: fetched.json, descriptorUrl: cmd.url, capabilitiesUrl, roomId, oauthClientId: client.oauthId, installedByUserId: cmd.actor.userId ?? null,
        }, this.box.seal(client.oauthSecret, secretPurpose.oauthClient(client.oauthId)));
        await this.audit.append(m, cmd.actor, { action: 'addon.installed', target: { type: 'addon', id: inserted.id, name: descriptor.name }, details: { key: descriptor.key, roomId, descriptorUrl: cmd.url, webhookIds: inserted.webhookIds } });
        if (inserted.webhookIds.length > 0) emit(WebhookRegistrationsChangedV1, { roomId, webhookIds: inserted.webhookIds });
        return inserted;
      } catch (err) {
        if (!(err instanceof AlreadyInstalled)) throw err;
        throw commandFailure('conflict', 'addon_not_installable', 'url', {
          url: cmd.url,
          problem: `the add-on ${descriptor.key} is already installed ${roomId === null ? 'group-wide' : `in room ${roomId}`}`,
        });
      }
    });

    const refused = await this.calls.postInstallation(descriptor.callbackUrl, installationBody({
      oauthId: client.oauthId, oauthSecret: client.oauthSecret, capabilitiesUrl, roomId,
    }));
    if (refused) {
      await this.removal.remove(created.id);
      this.logger.info({ installation: created.id, key: descriptor.key, problem: refused }, 'add-on installation callback failed; installation removed');
      throw commandFailure('invalid', 'addon_callback_failed', 'url', { url: descriptor.callbackUrl, problem: refused });
    }
    const installation = await this.addons.findView(this.db.manager, created.id);
    // Uninstalled while its callback ran: what the add-on was told no longer holds.
    if (!installation) throw commandFailure('not_found', 'addon_not_found', 'id', { ref: created.id });
    this.logger.info({ installation: created.id, key: descriptor.key, room: roomId }, 'add-on installed');
    return { installation };
  }
}
