import { Inject, Injectable } from '@nestjs/common';
import { APP_LOGGER, AppLogger, CommandMeta } from '@app/common';
import { DeleteRoomV1, ReplyOf, RequestOf, RoomDeletedV2, RoomMemberExitedV2, WebhookRegistrationsChangedV1 } from '@app/contracts';
import { AddonCalls } from '../../addons/addon-calls';
import { AddonRemoval } from '../../addons/addon-removal';
import type { InstallationRef } from '../../addons/addon.repository';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { Actors } from '../../users/actors';
import { PresentationContext, toRoomObject, toUserObject } from '../../shared/presentation';
import { WebhookRepository } from '../../webhooks/webhook.repository';
import { RoomFileRepository } from '../files/room-file.repository';
import { ParticipantRepository } from '../participants/participant.repository';
import { assertMayAdminister } from '../room-access';
import { RoomRepository } from '../room.repository';
import { PRESENTATION } from '../../shared/infrastructure.module';
import { AuditRepository } from '../../audit/audit.repository';
import { roomSubject } from '../../audit/audit-line';

/**
 * Removes the room, its messages and its files (its owner's and group admins' to do); everyone in it exits first (room_exit each, then
 * room_deleted). The events carry the room's last state. The add-ons installed in it are
 * uninstalled with it: their tokens (and the room's own tokens) revoked, their webhooks and
 * OAuth clients removed, and each told with `DELETE {callbackUrl}/{oauthId}` after the commit.
 */
@Injectable()
export class DeleteRoom {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly participants: ParticipantRepository,
    private readonly actors: Actors,
    private readonly webhooks: WebhookRepository,
    private readonly files: RoomFileRepository,
    private readonly addons: AddonRemoval,
    private readonly addonCalls: AddonCalls,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    private readonly audit: AuditRepository,
  ) {}

  async execute(cmd: RequestOf<typeof DeleteRoomV1>, meta: CommandMeta): Promise<ReplyOf<typeof DeleteRoomV1>> {
    let uninstalled: InstallationRef[] = [];
    const reply = await this.uow.apply(meta, async (tx) => {
      const { manager: m, emit } = tx;
      const { room, standing } = await this.rooms.findWithStanding(m, cmd.room, cmd.actor, 'update');
      assertMayAdminister(room, standing, 'delete');
      const sender = await this.actors.sender(m, cmd.actor);
      const roomObject = toRoomObject(room, this.ctx);
      // Its events are matched against the registrations before this deletion: the room's own
      // webhooks (and those of the add-ons installed in it) get its room_exit and room_deleted.
      const before = { registrations: 'before' } as const;
      for (const user of await this.participants.exitAll(m, room.id)) {
        emit(RoomMemberExitedV2, { room: roomObject, sender: toUserObject(user, this.ctx) }, before);
      }
      // Deleted here rather than by the cascade: the dispatchers are told which ones went.
      const webhookIds = await this.webhooks.deleteOfRoom(m, room.id);
      uninstalled = await this.addons.removeOfRoom(tx, room.id);
      // Its files stop being served at the commit; the gateway removes them from the storage
      // after it (ListRemovedFilesV1), their records kept until it has.
      await this.files.markRemovedOfRoom(m, room.id);
      await this.rooms.delete(m, room.id);
      await this.audit.append(m, cmd.actor, { action: 'room.deleted', target: roomSubject(room), details: { webhookIds, addonIds: uninstalled.map((i) => i.id) } });
      emit(RoomDeletedV2, { room: roomObject, sender }, before);
      // After room_deleted: the room's own room_deleted webhooks are still to be delivered.
      if (webhookIds.length > 0) emit(WebhookRegistrationsChangedV1, { roomId: room.id, webhookIds });
      return {};
    });
    // Not awaited: the room is gone whatever the add-ons answer (each failure is logged).
    for (const installation of uninstalled) void this.tellUninstalled(installation);
    return reply;
  }

  private async tellUninstalled(installation: InstallationRef): Promise<void> {
    const problem = await this.addonCalls.notifyUninstall(installation)
      .catch((err: Error) => err.message);
    if (problem) this.logger.warn({ installation: installation.id, problem }, 'add-on uninstall callback failed (its room was deleted)');
    else this.logger.info({ installation: installation.id }, 'add-on uninstalled with its room');
  }
}
