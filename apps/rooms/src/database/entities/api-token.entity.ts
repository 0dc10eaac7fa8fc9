import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { TokenKind } from '@app/contracts';

@Entity('api_tokens')
export class ApiTokenEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ name: 'token_hash' }) tokenHash: string;
  @Column() kind: TokenKind;
  @Column() label: string;
  @Column({ name: 'created_at', type: 'timestamptz', insert: false }) createdAt: Date;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
}
