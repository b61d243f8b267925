import { resellerSignupSchema, type ResellerSignup } from '@latchkey/shared';
import { redirect } from 'react-router';
import { SignupForm, type PersonValues } from '@/components/signup-form';
import { paths } from '@/config/paths';
import { isSignedIn } from '@/lib/auth-token';
import { useResellerSignup } from '../api/reseller-signup';
import { COMPANY_LABELS, CompanyFields, companyInput, type CompanyValues } from './company-fields';

function toPayload(values: PersonValues & CompanyValues): ResellerSignup {
  return {
    email: values.email,
    password: values.password,
    firstName: values.firstName,
    lastName: values.lastName,
    ...companyInput(values),
  };
}

/** The route's loader: someone signed in opens a reseller account from the reseller area instead. */
export function resellerSignupLoader() {
  if (isSignedIn()) throw redirect(paths.app.reseller.href());
  return null;
}

/** /reseller-signup (public): a new person with a reseller account, signed in at once. */
export function ResellerSignupPage() {
  const signup = useResellerSignup();
  return (
    <SignupForm
      title="Become a Latchkey reseller"
      description="Installers and integrators: set up portals for your customers, see what each is billed and what you earn."
      formLabel="Become a reseller"
      submitLabel="Create reseller account"
      signInTo="/?redirect=%2Fapp%2Freseller"
      // Controlled: the VAT hint follows the country as it is chosen.
      mode="controlled"
      extraValues={{ companyName: '', country: '', vatNumber: '' }}
      extraLabels={COMPANY_LABELS}
      extraFields={(form) => <CompanyFields form={form} />}
      schema={resellerSignupSchema}
      toPayload={toPayload}
      signup={signup}
      emailTakenMessage="An account with this email already exists: sign in and open a reseller account"
      welcome={{
        title: 'Welcome, reseller',
        message: 'Your reseller account is ready: add your first customer portal.',
      }}
      next={paths.app.reseller.href()}
    />
  );
}
