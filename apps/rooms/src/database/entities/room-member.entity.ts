import { Entity, PrimaryColumn } from 'typeorm';

@Entity('room_members')
export class RoomMemberEntity {
  @PrimaryColumn({ name: 'room_id' }) roomId: number;
  @PrimaryColumn({ name: 'user_id' }) userId: number;
}
