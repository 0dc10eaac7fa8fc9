import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { TokenKind } from '@app/contracts';

@Entity('api_tokens')
export class ApiTokenEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar', name: 'token_hash' }) tokenHash: string;
  @Column({ type: 'varchar' }) kind: TokenKind;
  @Column({ type: 'varchar' }) label: string;
  @Column({ name: 'user_id', type: 'integer', nullable: true }) userId: number | null;
  @Column({ name: 'room_id', type: 'integer', nullable: true }) roomId: number | null;
  @Column({ type: 'text', array: true }) scopes: string[];
  @Column({ name: 'created_at', type: 'timestamptz', insert: false }) createdAt: Date;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
  /** Add-on tokens (POST /v2/oauth/token) last an hour; null: until revoked. */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true, insert: false }) expiresAt: Date | null;
}
