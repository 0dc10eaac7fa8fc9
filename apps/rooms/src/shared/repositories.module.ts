import { Global, Module } from '@nestjs/common';
import { AddonRepository } from '../addons/addon.repository';
import { AuditRepository } from '../audit/audit.repository';
import { BridgeRepository } from '../bridges/bridge.repository';
import { ChatRepository } from '../chats/chat.repository';
import { MemberRepository } from '../rooms/members/member.repository';
import { MessageRepository } from '../rooms/message.repository';
import { ParticipantRepository } from '../rooms/participants/participant.repository';
import { RoomFileRepository } from '../rooms/files/room-file.repository';
import { RoomEventRepository } from '../rooms/room-events/room-event.repository';
import { RoomRepository } from '../rooms/room.repository';
import { TokenRepository } from '../tokens/token.repository';
import { Actors } from '../users/actors';
import { PrivateMessageRepository } from '../users/private-message.repository';
import { SessionRepository } from '../users/session.repository';
import { UserRepository } from '../users/user.repository';
import { WebhookHealthRepository } from '../webhooks/webhook-health.repository';
import { WebhookRepository } from '../webhooks/webhook.repository';

/**
 * Every aggregate's repository (and Actors, who acts, read from the users), provided once for
 * the whole service, as Immich's app module spreads its repositories: a feature module uses
 * another aggregate's rows through its repository, never by importing that module, so the
 * feature modules form no circle (no forwardRef). What a change in one aggregate does to the
 * others is a list of steps those modules provide (WebhookStepsModule, AddonsModule's
 * AddonRemoval), run in the change's transaction.
 */
const REPOSITORIES = [
  RoomRepository, MessageRepository, MemberRepository, ParticipantRepository, RoomEventRepository, RoomFileRepository,
  UserRepository, PrivateMessageRepository, SessionRepository, Actors,
  WebhookRepository, WebhookHealthRepository, AddonRepository, TokenRepository, AuditRepository, BridgeRepository, ChatRepository,
];

@Global()
@Module({ providers: REPOSITORIES, exports: REPOSITORIES })
export class RepositoriesModule {}
