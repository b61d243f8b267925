import { z } from 'zod';
import { lineText, multilineText } from './safe-input';

/**
 * Content pages (the brief's `info` collection, shown at /info/{topic}), their version history,
 * the navigation entries platform staff hide (the brief's `nav` collection) and the brands
 * (brief §1: three customer brands, each with a dark and a light logo).
 */

/** A page's address: lower-case words joined by hyphens (`terms`, `help-first-lock`). */
export const contentTopicSchema = z
  .string()
  .trim()
  .min(2)
  .max(60)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case letters, digits and hyphens');

/** Where a page is listed: the legal pages (terms, privacy, imprint) or the help topics. */
export const CONTENT_SECTIONS = ['legal', 'help'] as const;
export type ContentSection = (typeof CONTENT_SECTIONS)[number];

/** The Markdown body's limit: a long help page is a few thousand words. */
export const CONTENT_BODY_MAX = 100_000;

export const contentTopicParamsSchema = z.object({ topic: contentTopicSchema });

/** A published page as anyone reads it. */
export const infoPageSchema = z.object({
  topic: z.string(),
  title: z.string(),
  section: z.enum(CONTENT_SECTIONS),
  /** Markdown; the web app renders it sanitised (features/content/lib/render-markdown.ts). */
  body: z.string(),
  version: z.number().int(),
  updatedAt: z.string(),
});
export type InfoPage = z.infer<typeof infoPageSchema>;

/** The published pages, without their bodies (the help screens' lists, the footers). */
export const infoIndexSchema = z.object({
  pages: z.array(infoPageSchema.omit({ body: true })),
});
export type InfoIndex = z.infer<typeof infoIndexSchema>;

/** A page as platform staff edit it: published or not. */
export const contentPageSchema = infoPageSchema.extend({
  published: z.boolean(),
  updatedBy: z.string().nullable(),
});
export type ContentPage = z.infer<typeof contentPageSchema>;

export const contentPageListSchema = z.object({ pages: z.array(contentPageSchema.omit({ body: true })) });
export type ContentPageList = z.infer<typeof contentPageListSchema>;

/** Saving a page: every save is a new version. */
export const contentPageInputSchema = z.object({
  title: lineText().min(1).max(120),
  section: z.enum(CONTENT_SECTIONS),
  body: multilineText().max(CONTENT_BODY_MAX),
  published: z.boolean(),
});
export type ContentPageInput = z.infer<typeof contentPageInputSchema>;

/** One saved version of a page: who saved it and when. */
export const contentVersionSchema = z.object({
  version: z.number().int(),
  title: z.string(),
  section: z.enum(CONTENT_SECTIONS),
  body: z.string(),
  published: z.boolean(),
  savedAt: z.string(),
  savedBy: z.string().nullable(),
  /** The version this one restored, if it was a restore. */
  restoredFrom: z.number().int().nullable(),
});
export type ContentVersion = z.infer<typeof contentVersionSchema>;

export const contentVersionListSchema = z.object({ versions: z.array(contentVersionSchema) });
export type ContentVersionList = z.infer<typeof contentVersionListSchema>;

export const contentRestoreInputSchema = z.object({ version: z.number().int().min(1).max(1_000_000) });
export type ContentRestoreInput = z.infer<typeof contentRestoreInputSchema>;

/**
 * A navigation entry's key: the screen's address pattern as the web app's route table declares it
 * (`/app/lockout`), so a hidden entry follows the screen, not its label.
 */
export const navEntryKeySchema = z
  .string()
  .trim()
  .min(1)
  .max(120)
  .regex(/^\/[A-Za-z0-9/:_-]*$/, 'must be a screen address such as /app/lockout');

/** The navigation entries hidden deployment-wide (the web app reads it at boot). */
export const navVisibilitySchema = z.object({ hidden: z.array(z.string()) });
export type NavVisibility = z.infer<typeof navVisibilitySchema>;

export const navVisibilityInputSchema = z.object({ to: navEntryKeySchema, hidden: z.boolean() });
export type NavVisibilityInput = z.infer<typeof navVisibilityInputSchema>;

/** The three customer brands (brief §1). Latchkey is the default. */
export const BRAND_IDS = ['latchkey', 'keystone', 'harbor'] as const;
export type BrandId = (typeof BRAND_IDS)[number];
export const DEFAULT_BRAND: BrandId = 'latchkey';

export interface Brand {
  id: BrandId;
  name: string;
  /** Logo paths under the web app's public folder: for the dark and the light colour scheme. */
  logo: { dark: string; light: string };
  /** A PNG of the light logo for mail clients that do not show SVG. */
  mailLogo: string;
  /** The brand's colour on white (invoices). */
  color: string;
}

/** The company logo set (brief §9): each brand's name and its dark and light image paths. */
export const BRANDS: Record<BrandId, Brand> = {
  latchkey: {
    id: 'latchkey',
    name: 'Latchkey',
    logo: { dark: '/brands/latchkey-dark.svg', light: '/brands/latchkey-light.svg' },
    mailLogo: '/brands/latchkey-light.png',
    color: '#3F5B68',
  },
  keystone: {
    id: 'keystone',
    name: 'Keystone Access',
    logo: { dark: '/brands/keystone-dark.svg', light: '/brands/keystone-light.svg' },
    mailLogo: '/brands/keystone-light.png',
    color: '#A8590F',
  },
  harbor: {
    id: 'harbor',
    name: 'Harbor Locks',
    logo: { dark: '/brands/harbor-dark.svg', light: '/brands/harbor-light.svg' },
    mailLogo: '/brands/harbor-light.png',
    color: '#0F6B66',
  },
};

export const brandIdSchema = z.enum(BRAND_IDS);

/** The brand of the portal a person acts in: its reseller's, if the reseller chose one. */
export const portalBrandSchema = z.object({ brand: brandIdSchema.nullable() });
export type PortalBrand = z.infer<typeof portalBrandSchema>;

/** A reseller chooses the brand their customers see (null: the host's). */
export const resellerBrandInputSchema = z.object({ brand: brandIdSchema.nullable() });
export type ResellerBrandInput = z.infer<typeof resellerBrandInputSchema>;

/**
 * The brand for a host name, from a host → brand map (configuration: `brand.example.com=harbor`,
 * comma-separated), else the default.
 */
export function brandForHost(hostname: string, map: string | undefined): BrandId {
  const host = hostname.trim().toLowerCase().replace(/\.$/, '');
  for (const pair of (map ?? '').split(',')) {
    const [name, brand] = pair.split('=').map((part) => part.trim().toLowerCase());
    if (name && name === host && (BRAND_IDS as readonly string[]).includes(brand ?? ''))
      return brand as BrandId;
  }
  return DEFAULT_BRAND;
}

/** The default host → brand map: each partner brand's own host. */
export const DEFAULT_BRAND_HOSTS = 'locks.keystone-access.com=keystone,portal.harborlocks.com=harbor';
