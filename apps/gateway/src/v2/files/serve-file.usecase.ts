import { Inject, Injectable } from '@nestjs/common';
import { assertValidKey, FileStorage } from '@app/common';
import { ApiError } from '../../shared/api-error';
import { FILE_STORAGE } from './file-storage.token';
import { servingHeaders } from './serving';

/** GET /files/<key>: a stored file with the headers that keep it harmless (see servingHeaders). */
@Injectable()
export class ServeFile {
  constructor(@Inject(FILE_STORAGE) private readonly storage: FileStorage) {}

  async execute(key: string): Promise<{ data: Buffer; headers: Record<string, string> }> {
    try {
      // Keys never come from clients unchecked: no traversal, no hidden or sidecar files.
      assertValidKey(key);
    } catch {
      throw notFound();
    }
    const file = await this.storage.get(key);
    if (!file) throw notFound();
    // Files stored before names were kept download under their key's ASCII name.
    const fileName = file.fileName ?? key.slice(key.lastIndexOf('/') + 1);
    return { data: file.data, headers: servingHeaders(fileName, file.contentType, file.data) };
  }
}

const notFound = () => new ApiError(404, 'File not found.');
