import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { access, routesOfFeature } from '../../base/http/access';
import {
  billingPage,
  checkCardForm,
  checkoutPage,
  closedPage,
  confirmPage,
  isSessionExpired,
  type CardFormValues,
} from './sandbox-pages';
import { checkoutPageOpened } from './payments.service';
import { normalizeCardNumber, type SandboxProvider } from './sandbox-provider';

// The sandbox provider's hosted pages (/api3/sandbox-pay/…): what Stripe's checkout and customer
// portal are for the real provider. They are not part of the API (hidden from its document) and
// take plain form posts. Card numbers never leave this page's request: only the last four digits
// are kept, as a provider would show them.

const sessionParams = z.object({ id: z.string().regex(/^cs_test_sbx_[\w-]{8,40}$/) });
const billingParams = z.object({
  token: z
    .string()
    .max(1000)
    .regex(/^[\w-]+\.[\w-]+$/),
});
type Form = Partial<Record<string, string>>;

/** A page of the provider: its own strict policy, and the success and cancel origins as form targets. */
function sendPage(reply: FastifyReply, status: number, html: string, targets: string[] = []) {
  const origins = [...new Set(targets.map((url) => new URL(url).origin))].join(' ');
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self' ${origins}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .send(html);
}

function cardValues(body: Form): Partial<CardFormValues> {
  const text = (key: keyof CardFormValues) =>
    typeof body[key] === 'string' ? body[key].slice(0, 200) : undefined;
  return {
    email: text('email'),
    name: text('name'),
    number: text('number'),
    expiry: text('expiry'),
    cvc: text('cvc'),
  };
}

export function sandboxRoutes(sandbox: SandboxProvider): FastifyPluginAsync {
  return async (app) => {
    routesOfFeature(app, 'payments');
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    // The hosted pages' :id is the provider's checkout session; :token a billing-page link.
    const options = {
      config: { access: access.public, ids: { id: 'checkoutId' } },
      schema: { hide: true },
    } as const;
    const notFound = (reply: FastifyReply) =>
      sendPage(reply, 404, closedPage('Checkout not found', 'This payment link is not valid.', null));

    app.get('/sandbox-pay/:id', options, async (request, reply) => {
      const params = sessionParams.safeParse(request.params);
      const session = params.success ? await sandbox.findSession(app.db, params.data.id) : undefined;
      if (!session) return notFound(reply);
      if (session.status === 'complete') {
        return sendPage(
          reply,
          200,
          closedPage('Already paid', 'This checkout is paid.', {
            href: session.success_url,
            label: 'Continue',
          }),
        );
      }
      if (isSessionExpired(session)) {
        return sendPage(
          reply,
          410,
          closedPage('Checkout expired', 'This checkout has ended: nothing was charged.', {
            href: session.cancel_url,
            label: 'Go back',
          }),
        );
      }
      // The buyer is on the page: what the checkout holds is kept for its lifetime (stock-holds.ts).
      await checkoutPageOpened(app.db, app.payments, session.id);
      if (session.awaiting_confirmation) return sendPage(reply, 200, confirmPage(session));
      return sendPage(reply, 200, checkoutPage(session), [session.cancel_url]);
    });

    app.post('/sandbox-pay/:id', options, async (request, reply) => {
      const params = sessionParams.safeParse(request.params);
      const session = params.success ? await sandbox.findSession(app.db, params.data.id) : undefined;
      if (!session) return notFound(reply);
      if (session.status === 'open' && !isSessionExpired(session)) {
        await checkoutPageOpened(app.db, app.payments, session.id);
      }
      const values = cardValues((request.body ?? {}) as Form);
      const errors = checkCardForm(values, !session.customer_email);
      const number = normalizeCardNumber(values.number ?? '');
      if (!number) errors.number = 'Enter a valid card number.';
      if (Object.keys(errors).length > 0 || !number) {
        return sendPage(reply, 400, checkoutPage(session, { values, errors }), [session.cancel_url]);
      }
      const result = await sandbox.pay(session.id, { number, email: values.email ?? '' });
      switch (result.kind) {
        case 'paid':
        case 'closed':
          return reply.redirect(result.redirect, 303);
        case 'confirm':
          return reply.redirect(`${request.url.split('?')[0]}`, 303);
        case 'declined':
          return sendPage(reply, 402, checkoutPage(session, { values, message: result.message }), [
            session.cancel_url,
          ]);
      }
    });

    app.post('/sandbox-pay/:id/confirm', options, async (request, reply) => {
      const params = sessionParams.safeParse(request.params);
      const session = params.success ? await sandbox.findSession(app.db, params.data.id) : undefined;
      if (!session) return notFound(reply);
      const approve = ((request.body ?? {}) as Form).action === 'approve';
      const result = await sandbox.confirm(session.id, approve);
      if (result.kind === 'paid' || result.kind === 'closed') return reply.redirect(result.redirect, 303);
      const fresh = (await sandbox.findSession(app.db, session.id))!;
      return sendPage(
        reply,
        402,
        checkoutPage(fresh, { message: result.kind === 'declined' ? result.message : undefined }),
        [fresh.cancel_url],
      );
    });

    app.get('/sandbox-pay/billing/:token', options, async (request, reply) => {
      const params = billingParams.safeParse(request.params);
      const customer = params.success ? await sandbox.billingCustomer(params.data.token) : null;
      if (!customer)
        return sendPage(
          reply,
          404,
          closedPage('Link expired', 'Open the card page again from Latchkey.', null),
        );
      return sendPage(reply, 200, billingPage({ last4: customer.last4, returnUrl: customer.returnUrl }));
    });

    app.post('/sandbox-pay/billing/:token', options, async (request, reply) => {
      const params = billingParams.safeParse(request.params);
      const customer = params.success ? await sandbox.billingCustomer(params.data.token) : null;
      if (!customer)
        return sendPage(
          reply,
          404,
          closedPage('Link expired', 'Open the card page again from Latchkey.', null),
        );
      const values = cardValues((request.body ?? {}) as Form);
      const errors = checkCardForm({ ...values, name: undefined }, false);
      const number = normalizeCardNumber(values.number ?? '');
      if (!number) errors.number = 'Enter a valid card number.';
      if (Object.keys(errors).length > 0 || !number) {
        return sendPage(
          reply,
          400,
          billingPage({ last4: customer.last4, returnUrl: customer.returnUrl, values, errors }),
        );
      }
      if (!(number in { '4242424242424242': 1, '4000000000000341': 1 })) {
        return sendPage(
          reply,
          402,
          billingPage({
            last4: customer.last4,
            returnUrl: customer.returnUrl,
            message: 'This card was declined. Use 4242 4242 4242 4242.',
          }),
        );
      }
      await sandbox.updateCard(customer.customerId, number);
      return sendPage(
        reply,
        200,
        billingPage({ last4: number.slice(-4), returnUrl: customer.returnUrl, saved: true }),
      );
    });
  };
}
