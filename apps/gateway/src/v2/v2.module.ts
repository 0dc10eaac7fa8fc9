import { Module } from '@nestjs/common';
import { CapabilitiesController } from './capabilities/capabilities.controller';
import { V2ChatsModule } from './chats/chats.module';
import { V2EmoticonsModule } from './emoticons/emoticons.module';
import { V2EventsModule } from './events/events.module';
import { FilesModule } from './files/files.module';
import { V2MembersModule } from './members/members.module';
import { V2MessagesModule } from './messages/messages.module';
import { V2RoomsModule } from './rooms/rooms.module';
import { V2UsersModule } from './users/users.module';
import { V2CoreModule } from './v2-core.module';
import { V2WebhooksModule } from './webhooks/webhooks.module';
import { V2BridgesModule } from './bridges/bridges.module';
import { V2AddonsModule } from './addons/addons.module';
import { V2AuditModule } from './audit/audit.module';
import { V2SessionModule } from './session/session.module';
import { V2TokensModule } from './tokens/tokens.module';

/**
 * The HipChat version 2 API, one module per resource. Add a resource's module here.
 */
@Module({
  imports: [V2CoreModule, FilesModule, V2UsersModule, V2MembersModule, V2MessagesModule, V2EmoticonsModule, V2RoomsModule, V2WebhooksModule, V2BridgesModule, V2AddonsModule, V2EventsModule,
    V2SessionModule, V2TokensModule, V2AuditModule, V2ChatsModule],
  controllers: [CapabilitiesController],
})
export class V2Module {}
