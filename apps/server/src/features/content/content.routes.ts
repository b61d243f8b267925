import {
  contentPageInputSchema,
  contentPageListSchema,
  contentPageSchema,
  contentRestoreInputSchema,
  contentTopicParamsSchema,
  contentVersionListSchema,
  infoIndexSchema,
  infoPageSchema,
  navVisibilityInputSchema,
  navVisibilitySchema,
  portalBrandSchema,
  resellerBrandInputSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, routesOfFeature, signedIn } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import {
  getNavVisibility,
  getPage,
  getPortalBrand,
  getPublishedPage,
  getVersions,
  listAllPages,
  listPublishedPages,
  restoreVersion,
  savePage,
  setNavVisibility,
  setOwnResellerBrand,
} from './content.service';
import { ensureDefaultPages } from './default-pages';

const tags = ['content'];
// Content is the deployment's: platform staff edit it (CMS mode in the web app), anyone reads
// what is published.
const staff = { access: access.platform };

/** Content pages (/info/{topic}), their versions, the navigation's hidden entries and brands. */
export const contentRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'content');
  await ensureDefaultPages(app.db);

  app.get(
    '/info',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: 'The published content pages (terms, privacy, imprint, help topics), without bodies',
        response: { 200: infoIndexSchema, ...errorResponses },
      },
    },
    async () => listPublishedPages(app.db),
  );

  app.get(
    '/info/:topic',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: 'A published content page (Markdown); a draft or unknown topic is a 404',
        params: contentTopicParamsSchema,
        response: { 200: infoPageSchema, ...errorResponses },
      },
    },
    async (request) => getPublishedPage(app.db, request.params.topic),
  );

  app.get(
    '/content/pages',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Every content page, drafts too (platform staff)',
        response: { 200: contentPageListSchema, ...errorResponses },
      },
    },
    async () => listAllPages(app.db),
  );

  app.get(
    '/content/pages/:topic',
    {
      config: staff,
      schema: {
        tags,
        summary: 'A content page as it is now, published or not (platform staff)',
        params: contentTopicParamsSchema,
        response: { 200: contentPageSchema, ...errorResponses },
      },
    },
    async (request) => getPage(app.db, request.params.topic),
  );

  app.put(
    '/content/pages/:topic',
    {
      config: {
        ...staff,
        example: {
          body: { title: 'Privacy', section: 'legal', body: '# Privacy\n\nText.', published: true },
        },
      },
      schema: {
        tags,
        summary: "Save a page as its next version (creates the topic's first) (platform staff)",
        params: contentTopicParamsSchema,
        body: contentPageInputSchema,
        response: { 200: contentPageSchema, ...errorResponses },
      },
    },
    async (request) => savePage(app.db, request.params.topic, request.body, signedIn(request).user.id),
  );

  app.get(
    '/content/pages/:topic/versions',
    {
      config: staff,
      schema: {
        tags,
        summary: "A page's saved versions, newest first: who saved each and when (platform staff)",
        params: contentTopicParamsSchema,
        response: { 200: contentVersionListSchema, ...errorResponses },
      },
    },
    async (request) => getVersions(app.db, request.params.topic),
  );

  app.post(
    '/content/pages/:topic/restore',
    {
      config: { ...staff, example: { body: { version: 1 } } },
      schema: {
        tags,
        summary: 'Restore a version: it becomes the next version (platform staff)',
        params: contentTopicParamsSchema,
        body: contentRestoreInputSchema,
        response: { 200: contentPageSchema, ...errorResponses },
      },
    },
    async (request) =>
      restoreVersion(app.db, request.params.topic, request.body.version, signedIn(request).user.id),
  );

  app.get(
    '/content/nav',
    {
      // Read at boot, before anyone signs in (the sign-in page's links follow it too).
      config: { access: access.public },
      schema: {
        tags,
        summary: 'The navigation entries hidden deployment-wide (by screen address)',
        response: { 200: navVisibilitySchema, ...errorResponses },
      },
    },
    async () => getNavVisibility(app.db),
  );

  app.put(
    '/content/nav',
    {
      config: { ...staff, example: { body: { to: '/app/lockout', hidden: true } } },
      schema: {
        tags,
        summary: 'Hide or show a navigation entry for everyone (platform staff)',
        body: navVisibilityInputSchema,
        response: { 200: navVisibilitySchema, ...errorResponses },
      },
    },
    async (request) =>
      setNavVisibility(app.db, request.body.to, request.body.hidden, signedIn(request).user.id),
  );

  app.get(
    '/content/brand',
    {
      config: { access: access.account },
      schema: {
        tags,
        summary: "The brand of the portal the person acts in (its reseller's choice); null: the host's",
        response: { 200: portalBrandSchema, ...errorResponses },
      },
    },
    async (request) => getPortalBrand(app.db, signedIn(request).acting?.portal.id ?? null),
  );

  app.put(
    '/reseller/brand',
    {
      config: { access: access.account, example: { body: { brand: 'harbor' } } },
      schema: {
        tags,
        summary: "The brand the signed-in reseller's customers see (null: the host's)",
        body: resellerBrandInputSchema,
        response: { 200: portalBrandSchema, ...errorResponses },
      },
    },
    async (request) => setOwnResellerBrand(app.db, signedIn(request).user.id, request.body.brand),
  );
};
