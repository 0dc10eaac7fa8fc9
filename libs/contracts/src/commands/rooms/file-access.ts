import { z } from 'zod';
import { defineCommand } from '../define-command';
import { actorSchema } from '../refs';

/** A storage key as storageKeyFor makes them (`ab/abcd.../name.ext`); checked again by the storage. */
const storageKey = z.string().min(1).max(1024).regex(/^[A-Za-z0-9/_.-]+$/);

/**
 * Whether a shared file (or its thumbnail) is served, asked by the gateway at every request:
 * the room it was shared in must exist now, and a private room's file is for whoever may
 * read its history now (the private-room rule). `found: false` for a key of no file, a file
 * whose room is gone, and nothing else: a refusal is `mayRead: false`. `fileLinksRevokedAt`
 * (ISO-8601, null: never): the last time anyone or anything may have lost access to the room;
 * a private room's signed links issued at or before it are refused.
 */
export const GetFileAccessV1 = defineCommand<
  { found: false } | { found: true; privacy: 'public' | 'private'; mayRead: boolean; fileLinksRevokedAt: string | null }
>('rooms.get-file-access.v1', z.object({
  key: storageKey,
  /** Who asks (a token or a session); absent: nobody (a signed link, or no credentials). */
  actor: actorSchema.optional(),
}), { query: true });

/**
 * Files whose room was deleted, still in the storage: the gateway removes them there, then
 * forgets them (ForgetRemovedFilesV1). Oldest removals first.
 */
export const ListRemovedFilesV1 = defineCommand<{ keys: string[] }>('rooms.list-removed-files.v1', z.object({
  limit: z.number().int().positive().max(1000),
}), { query: true });

/** The gateway has removed these files from the storage: their records go (idempotent). */
export const ForgetRemovedFilesV1 = defineCommand<{ forgotten: number }>('rooms.forget-removed-files.v1', z.object({
  keys: z.array(storageKey).max(1000),
}));
