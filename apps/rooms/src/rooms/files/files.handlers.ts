import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ForgetRemovedFilesV1, GetFileAccessV1, ListRemovedFilesV1, RequestOf } from '@app/contracts';
import { CommandPipe } from '../../shared/command-pipe';
import { ForgetRemovedFiles } from './forget-removed-files.usecase';
import { GetFileAccess } from './get-file-access.usecase';
import { ListRemovedFiles } from './list-removed-files.usecase';

/** Transport edge of the stored files' records: who may have a file, and the deleted rooms' files. */
@Controller()
export class FilesHandlers {
  constructor(
    private readonly getFileAccess: GetFileAccess,
    private readonly listRemovedFiles: ListRemovedFiles,
    private readonly forgetRemovedFiles: ForgetRemovedFiles,
  ) {}

  @MessagePattern(GetFileAccessV1.pattern)
  access(@Payload(new CommandPipe(GetFileAccessV1)) c: RequestOf<typeof GetFileAccessV1>) { return this.getFileAccess.execute(c); }

  @MessagePattern(ListRemovedFilesV1.pattern)
  removed(@Payload(new CommandPipe(ListRemovedFilesV1)) c: RequestOf<typeof ListRemovedFilesV1>) { return this.listRemovedFiles.execute(c); }

  @MessagePattern(ForgetRemovedFilesV1.pattern)
  forget(@Payload(new CommandPipe(ForgetRemovedFilesV1)) c: RequestOf<typeof ForgetRemovedFilesV1>) { return this.forgetRemovedFiles.execute(c); }
}
