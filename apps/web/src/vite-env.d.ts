/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base path (or absolute URL) of the API; `/api3` when unset. */
  readonly VITE_API_BASE?: string;
  /** Comma-separated host names that run the main app (live, stage, test). */
  readonly VITE_APP_HOSTS?: string;
  /** Comma-separated host names of the reseller system. */
  readonly VITE_RESELLER_HOSTS?: string;
  /** Comma-separated host names of the platform admin system. */
  readonly VITE_ADMIN_HOSTS?: string;
  /** The host → brand map (`host=latchkey|keystone|harbor`, comma-separated); a default when unset. */
  readonly VITE_BRAND_HOSTS?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
