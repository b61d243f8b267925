import { BRANDS, brandForHost, DEFAULT_BRAND_HOSTS, type Brand, type BrandId } from '@latchkey/shared';

/**
 * The brand of the page being shown (brief §1: three customer brands), from its host name: the
 * host → brand map is VITE_BRAND_HOSTS (`host=brand,…`), else the shared default map. A signed-in
 * person in a reseller's portal sees the reseller's brand instead (the frame asks GET content/brand).
 */
export function hostBrandId(hostname: string = window.location.hostname): BrandId {
  return brandForHost(hostname, import.meta.env.VITE_BRAND_HOSTS ?? DEFAULT_BRAND_HOSTS);
}

export function brandOf(id?: BrandId | null): Brand {
  return BRANDS[id ?? hostBrandId()];
}

/** Each logo's width for a height of 40 (the SVGs' view boxes), so the frame keeps its place while it loads. */
export const LOGO_WIDTH_AT_40: Record<BrandId, number> = { latchkey: 150, keystone: 224, harbor: 196 };
