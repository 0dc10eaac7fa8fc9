import { Module } from '@nestjs/common';
import { LocalDirectoryStorage } from '@app/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { V2CoreModule } from '../v2-core.module';
import { FileServingController } from './file-serving.controller';
import { FILE_STORAGE } from './file-storage.token';
import { ServeFile } from './serve-file.usecase';
import { ShareFile } from './share-file.usecase';
import { ShareFileController } from './share-file.controller';

/** Sharing files in rooms (POST /v2/room/{room}/share/file) and serving them (GET /files/<key>). */
@Module({
  imports: [V2CoreModule],
  controllers: [ShareFileController, FileServingController],
  providers: [
    { provide: FILE_STORAGE, inject: [GATEWAY_CONFIG], useFactory: (config: GatewayConfig) => new LocalDirectoryStorage(config.FILE_STORAGE_DIR) },
    ShareFile,
    ServeFile,
  ],
})
export class FilesModule {}
