/** The FileStorage the files module provides (a LocalDirectoryStorage on FILE_STORAGE_DIR). */
export const FILE_STORAGE = Symbol('FILE_STORAGE');
