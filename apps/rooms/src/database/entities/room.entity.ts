import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('rooms')
export class RoomEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column() name: string;
  @Column() topic: string;
  @Column() privacy: 'public' | 'private';
  @Column({ name: 'owner_user_id' }) ownerUserId: number;
  @Column({ name: 'is_archived' }) isArchived: boolean;
  @Column({ name: 'guest_access_token', type: 'varchar', nullable: true }) guestAccessToken: string | null;
  @Column() version: string;
  @Column({ name: 'created_at', type: 'timestamptz', insert: false }) createdAt: Date;
  @Column({ name: 'last_active_at', type: 'timestamptz', nullable: true }) lastActiveAt: Date | null;
}
