import { ApiTokenEntity } from './api-token.entity';
import { MessageEntity } from './message.entity';
import { RoomMemberEntity } from './room-member.entity';
import { RoomEntity } from './room.entity';
import { UserEntity } from './user.entity';

export { ApiTokenEntity, MessageEntity, RoomMemberEntity, RoomEntity, UserEntity };
export const ENTITIES = [UserEntity, RoomEntity, RoomMemberEntity, MessageEntity, ApiTokenEntity];
