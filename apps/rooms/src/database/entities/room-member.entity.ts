import { Entity, PrimaryColumn } from 'typeorm';

@Entity('room_members')
export class RoomMemberEntity {
  @PrimaryColumn({ type: 'integer', name: 'room_id' }) roomId: number;
  @PrimaryColumn({ type: 'integer', name: 'user_id' }) userId: number;
}
