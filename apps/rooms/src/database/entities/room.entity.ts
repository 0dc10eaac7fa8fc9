import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('rooms')
export class RoomEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar' }) name: string;
  @Column({ type: 'varchar' }) topic: string;
  @Column({ type: 'varchar' }) privacy: 'public' | 'private';
  @Column({ type: 'integer', name: 'owner_user_id' }) ownerUserId: number;
  @Column({ type: 'boolean', name: 'is_archived' }) isArchived: boolean;
  @Column({ name: 'guest_access_token', type: 'varchar', nullable: true }) guestAccessToken: string | null;
  @Column({ type: 'varchar' }) version: string;
  @Column({ name: 'created_at', type: 'timestamptz', insert: false }) createdAt: Date;
}
