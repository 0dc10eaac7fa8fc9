/** The FileStorage the files module provides (a LocalDirectoryStorage on FILE_STORAGE_DIR). */
export const FILE_STORAGE = Symbol('FILE_STORAGE');

/** The FileLinks (signed, expiring file links) the files module provides, keyed by FILE_LINK_SECRET or the generated key. */
export const FILE_LINKS = Symbol('FILE_LINKS');
