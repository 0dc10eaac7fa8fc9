import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar' }) name: string;
  @Column({ type: 'varchar', name: 'mention_name' }) mentionName: string;
  @Column({ type: 'varchar' }) email: string;
  @Column({ type: 'varchar' }) title: string;
  @Column({ type: 'varchar', name: 'password_hash', select: false }) passwordHash: string;
  @Column({ type: 'boolean', name: 'is_group_admin' }) isGroupAdmin: boolean;
  @Column({ type: 'varchar' }) timezone: string;
  @Column({ type: 'varchar' }) status: string;
  @Column({ type: 'varchar', name: 'status_message' }) statusMessage: string;
  @Column({ type: 'boolean', name: 'is_deleted' }) isDeleted: boolean;
  @Column({ type: 'boolean', name: 'is_guest', default: false }) isGuest: boolean;
  @Column({ type: 'varchar' }) version: string;
  @Column({ name: 'created_at', type: 'timestamptz', insert: false }) createdAt: Date;
  @Column({ name: 'last_active_at', type: 'timestamptz', nullable: true }) lastActiveAt: Date | null;
}
