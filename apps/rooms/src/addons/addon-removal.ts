import { Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { Actor, commandFailure, TokenRevokedV1, WebhookRegistrationsChangedV1 } from '@app/contracts';
import { Tx, UnitOfWork } from '../outbox/unit-of-work';
import { AddonRepository, InstallationRef } from './addon.repository';
import { AuditRepository } from '../audit/audit.repository';
import { RoomRepository } from '../rooms/room.repository';

/** Not a broker command: nothing to apply once, no deadline (a cleanup must not be refused for lateness). */
const LOCAL_META: CommandMeta = { pattern: 'addons.local', commandId: '', deadline: 0, redelivered: false };

/**
 * Removes an installation: its live tokens revoked (`token.revoked.v1` each, so every
 * gateway drops them), its webhooks (declared, or registered by its tokens) and OAuth
 * client deleted (a registrations notice per room), the signed file links it may hold revoked.
 * Answers once the events are on the broker: a token used right after is refused.
 * Shared by uninstall and by an install whose callback failed.
 */
@Injectable()
export class AddonRemoval {
  constructor(
    private readonly uow: UnitOfWork, private readonly addons: AddonRepository, private readonly audit: AuditRepository, private readonly rooms: RoomRepository,
  ) {}

  remove(id: number, meta: CommandMeta = LOCAL_META, actor?: Actor): Promise<{ removed: InstallationRef | null }> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      const installation = await this.addons.lockForRemoval(m, id);
      if (!installation) return { removed: null };
      // A token confined to one room removes only what is installed in that room.
      if (actor?.roomId !== undefined && installation.roomId !== actor.roomId) {
        throw commandFailure('forbidden', 'outside_token_room', 'id', { ref: id });
      }
      await this.audit.append(m, actor, { action: 'addon.uninstalled', target: await this.audit.subjectOf(m, 'addon', id), details: { roomId: installation.roomId } });
      for (const tokenId of await this.addons.revokeTokens(m, id)) emit(TokenRevokedV1, { tokenId });
      for (const [roomId, webhookIds] of await this.addons.delete(m, id)) emit(WebhookRegistrationsChangedV1, { roomId, webhookIds });
      // Its receivers held signed file links: of its room's, or (installed group-wide) of any private room's.
      await this.rooms.revokeFileLinks(m, installation.roomId === null ? 'every-private-room' : { roomIds: [installation.roomId] });
      return { removed: installation };
    }, { replyAfterPublish: true });
  }

  /**
   * Within the deletion of a room: removes the add-ons installed in it and revokes every
   * token confined to it (`token.revoked.v1` each: a gateway's cached token dies with the
   * room). Answers the removed installations, whose uninstall callbacks are due after the commit.
   */
  async removeOfRoom({ manager: m, emit }: Tx, roomId: number): Promise<InstallationRef[]> {
    const installations = await this.addons.lockOfRoom(m, roomId);
    for (const tokenId of await this.addons.revokeRoomTokens(m, roomId)) emit(TokenRevokedV1, { tokenId });
    for (const installation of installations) {
      for (const tokenId of await this.addons.revokeTokens(m, installation.id)) emit(TokenRevokedV1, { tokenId });
      for (const [webhookRoomId, webhookIds] of await this.addons.delete(m, installation.id)) {
        // The room's own webhooks are gone already (announced after room_deleted).
        if (webhookRoomId !== roomId) emit(WebhookRegistrationsChangedV1, { roomId: webhookRoomId, webhookIds });
      }
    }
    return installations;
  }
}
