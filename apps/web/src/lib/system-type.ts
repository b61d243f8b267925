import type { SystemType } from '@latchkey/shared';

/** Default host lists; each can be replaced with a comma-separated VITE_*_HOSTS variable. */
export const DEFAULT_HOSTS: Record<SystemType, readonly string[]> = {
  app: ['app.latchkey.io', 'stage.latchkey.io', 'test.latchkey.io'],
  reseller: ['reseller.latchkey.io'],
  admin: ['admin.latchkey.io'],
};

export interface HostEnv {
  VITE_APP_HOSTS?: string;
  VITE_RESELLER_HOSTS?: string;
  VITE_ADMIN_HOSTS?: string;
}

function hostList(value: string | undefined, fallback: readonly string[]): string[] {
  if (value === undefined || value.trim() === '') return [...fallback];
  return value
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * The system type for a host name (brief §1): the main app's live, stage and test hosts give
 * 'app', the reseller host 'reseller', the admin host 'admin'; any other host gives 'app'.
 */
export function systemTypeForHost(hostname: string, env: HostEnv = import.meta.env): SystemType {
  const host = hostname.trim().toLowerCase().replace(/\.$/, '');
  if (hostList(env.VITE_ADMIN_HOSTS, DEFAULT_HOSTS.admin).includes(host)) return 'admin';
  if (hostList(env.VITE_RESELLER_HOSTS, DEFAULT_HOSTS.reseller).includes(host)) return 'reseller';
  if (hostList(env.VITE_APP_HOSTS, DEFAULT_HOSTS.app).includes(host)) return 'app';
  return 'app';
}

/** The system type of the page being shown. */
export function getSystemType(): SystemType {
  return systemTypeForHost(window.location.hostname);
}
