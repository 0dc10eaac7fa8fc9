import { Module } from '@nestjs/common';
import { AddonsModule } from '../addons/addons.module';
import { WebhookStepsModule } from '../webhooks/lost-access/webhook-steps.module';
import { CreateRoom } from './create-room/create-room.usecase';
import { DeleteRoom } from './delete-room/delete-room.usecase';
import { FilesHandlers } from './files/files.handlers';
import { ForgetRemovedFiles } from './files/forget-removed-files.usecase';
import { GetFileAccess } from './files/get-file-access.usecase';
import { ListRemovedFiles } from './files/list-removed-files.usecase';
import { GetHistory } from './get-history/get-history.usecase';
import { GetMessage } from './get-message/get-message.usecase';
import { GetRoom } from './get-room/get-room.usecase';
import { GetRoomStatistics } from './get-room-statistics/get-room-statistics.usecase';
import { ListRooms } from './list-rooms/list-rooms.usecase';
import { AddMember } from './members/add-member/add-member.usecase';
import { InviteUser } from './members/invite-user/invite-user.usecase';
import { ListMembers } from './members/list-members/list-members.usecase';
import { MembersHandlers } from './members/members.handlers';
import { RemoveMember } from './members/remove-member/remove-member.usecase';
import { MessagesHandlers } from './messages.handlers';
import { EnterRoom } from './participants/enter-room/enter-room.usecase';
import { ExitRoom } from './participants/exit-room/exit-room.usecase';
import { ListParticipants } from './participants/list-participants/list-participants.usecase';
import { ParticipantsHandlers } from './participants/participants.handlers';
import { GetRoomEvents } from './room-events/get-room-events.usecase';
import { RoomPost } from './room-post';
import { RoomsHandlers } from './rooms.handlers';
import { SendMessage } from './send-message/send-message.usecase';
import { SendNotification } from './send-notification/send-notification.usecase';
import { SetTopic } from './set-topic/set-topic.usecase';
import { ShareFileHandlers } from './share-file/share-file.handlers';
import { ShareFile } from './share-file/share-file.usecase';
import { UpdateRoom } from './update-room/update-room.usecase';

/**
 * Rooms with their messages, members and participants. Repositories come from the
 * RepositoriesModule; what a room's deletion or a narrowing of access does to add-ons and
 * webhooks are steps those modules provide (AddonRemoval, WebhookAccessSteps).
 */
@Module({
  imports: [AddonsModule, WebhookStepsModule],
  controllers: [RoomsHandlers, MessagesHandlers, ShareFileHandlers, FilesHandlers, MembersHandlers, ParticipantsHandlers],
  providers: [
    RoomPost,
    CreateRoom, DeleteRoom, GetRoom, GetRoomStatistics, ListRooms, SetTopic, UpdateRoom,
    GetHistory, GetMessage, GetRoomEvents, SendNotification, SendMessage, ShareFile,
    AddMember, RemoveMember, ListMembers, InviteUser,
    EnterRoom, ExitRoom, ListParticipants,
    GetFileAccess, ListRemovedFiles, ForgetRemovedFiles,
  ],
  exports: [SendNotification, RoomPost],
})
export class RoomsModule {}
