import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { APP_LOGGER, AmqpBroker, AppLogger, CommandErrorPassthrough } from '@app/common';
import { DataSource } from 'typeorm';
import { ROOMS_CONFIG, RoomsConfig } from './config';
import { CommandLogInterceptor, RoomsLifecycle } from './lifecycle';
import { OutboxRelay } from './outbox/outbox-relay';
import { UnitOfWork } from './outbox/unit-of-work';
import { CreateRoom } from './rooms/create-room/create-room.usecase';
import { DeleteRoom } from './rooms/delete-room/delete-room.usecase';
import { GetHistory } from './rooms/get-history/get-history.usecase';
import { GetRoom } from './rooms/get-room/get-room.usecase';
import { ListRooms } from './rooms/list-rooms/list-rooms.usecase';
import { MessageRepository } from './rooms/message.repository';
import { ParticipantRepository } from './rooms/participants/participant.repository';
import { MemberRepository } from './rooms/members/member.repository';
import { MembersHandlers } from './rooms/members/members.handlers';
import { AddMember } from './rooms/members/add-member/add-member.usecase';
import { RemoveMember } from './rooms/members/remove-member/remove-member.usecase';
import { ListMembers } from './rooms/members/list-members/list-members.usecase';
import { InviteUser } from './rooms/members/invite-user/invite-user.usecase';
import { ParticipantsHandlers } from './rooms/participants/participants.handlers';
import { EnterRoom } from './rooms/participants/enter-room/enter-room.usecase';
import { ExitRoom } from './rooms/participants/exit-room/exit-room.usecase';
import { ListParticipants } from './rooms/participants/list-participants/list-participants.usecase';
import { RoomRepository } from './rooms/room.repository';
import { RoomsHandlers } from './rooms/rooms.handlers';
import { MessagesHandlers } from './rooms/messages.handlers';
import { RoomPost } from './rooms/room-post';
import { SendMessage } from './rooms/send-message/send-message.usecase';
import { GetMessage } from './rooms/get-message/get-message.usecase';
import { SendNotification } from './rooms/send-notification/send-notification.usecase';
import { SetTopic } from './rooms/set-topic/set-topic.usecase';
import { UpdateRoom } from './rooms/update-room/update-room.usecase';
import { ShareFileHandlers } from './rooms/share-file/share-file.handlers';
import { ShareFile } from './rooms/share-file/share-file.usecase';
import { Actors } from './shared/actors';
import { PRESENTATION, PresentationContext } from './shared/presentation';
import { UsersHandlers } from './users/users.handlers';
import { AddonsHandlers } from './addons/addons.handlers';
import { addonProviders } from './addons/addons.providers';
import { TokensHandlers } from './tokens/tokens.handlers';
import { CreateToken } from './tokens/create-token/create-token.usecase';
import { ListTokens } from './tokens/list-tokens/list-tokens.usecase';
import { ResolveToken } from './tokens/resolve-token/resolve-token.usecase';
import { RevokeToken } from './tokens/revoke-token/revoke-token.usecase';
import { TokenRepository } from './tokens/token.repository';
import { CreateUser } from './users/create-user/create-user.usecase';
import { DeleteUser } from './users/delete-user/delete-user.usecase';
import { GetUser } from './users/get-user/get-user.usecase';
import { ListUsers } from './users/list-users/list-users.usecase';
import { UpdateUser } from './users/update-user/update-user.usecase';
import { UserRepository } from './users/user.repository';
import { PrivateMessageRepository } from './users/private-message.repository';
import { SendPrivateMessage } from './users/send-private-message/send-private-message.usecase';
import { GetPrivateHistory } from './users/get-private-history/get-private-history.usecase';
import { WebhookRepository } from './webhooks/webhook.repository';
import { WebhooksHandlers } from './webhooks/webhooks.handlers';
import { CreateWebhook } from './webhooks/create-webhook/create-webhook.usecase';
import { RegisterWebhook } from './webhooks/register-webhook';
import { PutWebhook } from './webhooks/put-webhook/put-webhook.usecase';
import { ListWebhooks } from './webhooks/list-webhooks/list-webhooks.usecase';
import { GetWebhook } from './webhooks/get-webhook/get-webhook.usecase';
import { DeleteWebhook } from './webhooks/delete-webhook/delete-webhook.usecase';
import { ListRegistrations } from './webhooks/list-registrations/list-registrations.usecase';

export function presentationContext(config: RoomsConfig): PresentationContext {
  return { baseUrl: config.PUBLIC_BASE_URL, xmppMucDomain: config.XMPP_MUC_DOMAIN, groupId: 1 };
}

/** The unit of work and its relay, shared by the service and the CLI. */
export function createUnitOfWork(db: DataSource, broker: AmqpBroker | undefined, logger: AppLogger, config: RoomsConfig) {
  const relay = new OutboxRelay(db, broker?.createEventPublisher() ?? null, logger, { pollMs: config.OUTBOX_POLL_MS, sweepAgeMs: config.OUTBOX_SWEEP_AGE_MS });
  const uow = new UnitOfWork(db, relay, logger, { maxBatch: config.COMMIT_BATCH_MAX, maxConcurrent: config.COMMIT_CONCURRENCY });
  return { relay, uow };
}

@Module({})
export class RoomsAppModule {
  /** The database and broker are opened by bootstrap (the broker also carries the commands). */
  static forRoot(config: RoomsConfig, logger: AppLogger, db: DataSource, broker: AmqpBroker): DynamicModule {
    const { relay, uow } = createUnitOfWork(db, broker, logger, config);
    return {
      module: RoomsAppModule,
      controllers: [ShareFileHandlers, RoomsHandlers, MessagesHandlers, UsersHandlers, TokensHandlers, MembersHandlers, ParticipantsHandlers, WebhooksHandlers, AddonsHandlers],
      providers: [
        { provide: ROOMS_CONFIG, useValue: config },
        { provide: APP_LOGGER, useValue: logger },
        { provide: PRESENTATION, useValue: presentationContext(config) },
        { provide: DataSource, useValue: db },
        { provide: AmqpBroker, useValue: broker },
        { provide: OutboxRelay, useValue: relay },
        { provide: UnitOfWork, useValue: uow },
        RoomRepository, MessageRepository, UserRepository, ParticipantRepository, Actors,
        MemberRepository, AddMember, RemoveMember, ListMembers, InviteUser, EnterRoom, ExitRoom, ListParticipants,
        ShareFile,
        SendMessage, GetMessage, RoomPost,
        CreateRoom, DeleteRoom, GetRoom, ListRooms, GetHistory, SendNotification, SetTopic, UpdateRoom,
        CreateUser, UpdateUser, DeleteUser, GetUser, ListUsers,
        PrivateMessageRepository, SendPrivateMessage, GetPrivateHistory,
        WebhookRepository, RegisterWebhook, CreateWebhook, PutWebhook, ListWebhooks, GetWebhook, DeleteWebhook, ListRegistrations,
        ...addonProviders(config),
        TokenRepository, ResolveToken, CreateToken, ListTokens, RevokeToken,
        RoomsLifecycle,
        { provide: APP_INTERCEPTOR, useClass: CommandLogInterceptor },
        // Errors reach the command server as thrown: it answers refusals with their CommandError.
        { provide: APP_FILTER, useClass: CommandErrorPassthrough },
      ],
    };
  }
}
