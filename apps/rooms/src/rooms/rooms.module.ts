import { forwardRef, Module } from '@nestjs/common';
import { AddonsModule } from '../addons/addons.module';
import { UsersModule } from '../users/users.module';
import { WebhookStepsModule } from '../webhooks/lost-access/webhook-steps.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { CreateRoom } from './create-room/create-room.usecase';
import { DeleteRoom } from './delete-room/delete-room.usecase';
import { FilesHandlers } from './files/files.handlers';
import { ForgetRemovedFiles } from './files/forget-removed-files.usecase';
import { GetFileAccess } from './files/get-file-access.usecase';
import { ListRemovedFiles } from './files/list-removed-files.usecase';
import { RoomFileRepository } from './files/room-file.repository';
import { GetHistory } from './get-history/get-history.usecase';
import { GetMessage } from './get-message/get-message.usecase';
import { GetRoom } from './get-room/get-room.usecase';
import { GetRoomStatistics } from './get-room-statistics/get-room-statistics.usecase';
import { ListRooms } from './list-rooms/list-rooms.usecase';
import { AddMember } from './members/add-member/add-member.usecase';
import { InviteUser } from './members/invite-user/invite-user.usecase';
import { ListMembers } from './members/list-members/list-members.usecase';
import { MemberRepository } from './members/member.repository';
import { MembersHandlers } from './members/members.handlers';
import { RemoveMember } from './members/remove-member/remove-member.usecase';
import { MessageRepository } from './message.repository';
import { MessagesHandlers } from './messages.handlers';
import { EnterRoom } from './participants/enter-room/enter-room.usecase';
import { ExitRoom } from './participants/exit-room/exit-room.usecase';
import { ListParticipants } from './participants/list-participants/list-participants.usecase';
import { ParticipantRepository } from './participants/participant.repository';
import { ParticipantsHandlers } from './participants/participants.handlers';
import { GetRoomEvents } from './room-events/get-room-events.usecase';
import { RoomEventRepository } from './room-events/room-event.repository';
import { RoomPost } from './room-post';
import { RoomRepository } from './room.repository';
import { RoomsHandlers } from './rooms.handlers';
import { SendMessage } from './send-message/send-message.usecase';
import { SendNotification } from './send-notification/send-notification.usecase';
import { SetTopic } from './set-topic/set-topic.usecase';
import { ShareFileHandlers } from './share-file/share-file.handlers';
import { ShareFile } from './share-file/share-file.usecase';
import { UpdateRoom } from './update-room/update-room.usecase';

/**
 * Rooms with their messages, members and participants. forwardRef: deleting a room removes
 * its webhooks and add-ons, and deleting a user takes them out of rooms, while webhooks,
 * add-ons and users find rooms through RoomRepository.
 */
@Module({
  imports: [forwardRef(() => UsersModule), forwardRef(() => WebhooksModule), forwardRef(() => AddonsModule), WebhookStepsModule],
  controllers: [RoomsHandlers, MessagesHandlers, ShareFileHandlers, FilesHandlers, MembersHandlers, ParticipantsHandlers],
  providers: [
    RoomRepository, MessageRepository, MemberRepository, ParticipantRepository, RoomPost, RoomEventRepository, RoomFileRepository,
    CreateRoom, DeleteRoom, GetRoom, GetRoomStatistics, ListRooms, SetTopic, UpdateRoom,
    GetHistory, GetMessage, GetRoomEvents, SendNotification, SendMessage, ShareFile,
    AddMember, RemoveMember, ListMembers, InviteUser,
    EnterRoom, ExitRoom, ListParticipants,
    GetFileAccess, ListRemovedFiles, ForgetRemovedFiles,
  ],
  exports: [RoomRepository, ParticipantRepository, SendNotification],
})
export class RoomsModule {}
