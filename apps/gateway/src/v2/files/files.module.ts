import { Module } from '@nestjs/common';
import { LocalDirectoryStorage } from '@app/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { V2CoreModule } from '../v2-core.module';
import { FileCleanup } from './file-cleanup';
import { FileLinks, loadFileLinkKey } from './file-links';
import { FileServingController } from './file-serving.controller';
import { FILE_LINKS, FILE_STORAGE } from './file-storage.token';
import { ServeFile } from './serve-file.usecase';
import { ShareFile } from './share-file.usecase';
import { ShareFileController } from './share-file.controller';

/**
 * Sharing files in rooms (POST /v2/room/{room}/share/file), serving them (GET /files/<key>)
 * and removing the files of deleted rooms from the storage.
 */
@Module({
  imports: [V2CoreModule],
  controllers: [ShareFileController, FileServingController],
  providers: [
    { provide: FILE_STORAGE, inject: [GATEWAY_CONFIG], useFactory: (config: GatewayConfig) => new LocalDirectoryStorage(config.FILE_STORAGE_DIR) },
    {
      provide: FILE_LINKS,
      inject: [GATEWAY_CONFIG],
      useFactory: async (config: GatewayConfig) => new FileLinks(await loadFileLinkKey(config.FILE_LINK_SECRET, config.FILE_STORAGE_DIR)),
    },
    ShareFile,
    ServeFile,
    FileCleanup,
  ],
})
export class FilesModule {}
