import type { ESLint } from 'eslint';

/** The import circles of one app (files relative to its src) and each file's imports within it. */
export function importGraphOf(appDir: 'apps/server' | 'apps/web'): {
  circles: string[][];
  imports: Map<string, string[]>;
};

declare const plugin: ESLint.Plugin;
export default plugin;
