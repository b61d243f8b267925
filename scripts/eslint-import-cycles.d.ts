import type { ESLint } from 'eslint';

/** The import circles of one app (files relative to its src) and each file's imports within it. */
export function importGraphOf(appDir: 'apps/server' | 'apps/web'): {
  circles: string[][];
  imports: Map<string, string[]>;
};

/** Each folder of one app (features/<name>, base, db, or a top-level file) and the folders it imports. */
export function folderGraphOf(appDir: 'apps/server' | 'apps/web'): Map<string, string[]>;

declare const plugin: ESLint.Plugin;
export default plugin;
