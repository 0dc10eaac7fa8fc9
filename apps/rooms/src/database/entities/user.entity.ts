import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column() name: string;
  @Column({ name: 'mention_name' }) mentionName: string;
  @Column() email: string;
  @Column() title: string;
  @Column({ name: 'password_hash', select: false }) passwordHash: string;
  @Column({ name: 'is_group_admin' }) isGroupAdmin: boolean;
  @Column() timezone: string;
  @Column() status: string;
  @Column({ name: 'status_message' }) statusMessage: string;
  @Column({ name: 'is_deleted' }) isDeleted: boolean;
  @Column() version: string;
  @Column({ name: 'created_at', type: 'timestamptz', insert: false }) createdAt: Date;
  @Column({ name: 'last_active_at', type: 'timestamptz', nullable: true }) lastActiveAt: Date | null;
}
