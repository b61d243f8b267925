import { createAccountSchema, type CreateAccountInput } from '@latchkey/shared';
import { TextInput } from '@mantine/core';
import { SignupForm, type PersonValues } from '@/components/signup-form';
import { useCreateAccount } from '../api/create-account';
import { paths } from '@/config/paths';

interface PortalValues {
  portalName: string;
}

/** What the form sends: the portal name is optional, so an empty one is left out. */
function toPayload(values: PersonValues & PortalValues): CreateAccountInput {
  const portalName = values.portalName.trim();
  return {
    email: values.email,
    password: values.password,
    firstName: values.firstName,
    lastName: values.lastName,
    ...(portalName ? { portalName } : {}),
  };
}

/** `/signup`: a new person and the portal they own. */
export function SignupPage() {
  const createAccount = useCreateAccount();
  return (
    <SignupForm
      title="Create your account"
      description="Set up your portal and start adding locks and people."
      submitLabel="Create account"
      signInTo={paths.root.href()}
      extraValues={{ portalName: '' }}
      extraLabels={{ portalName: 'Portal name' }}
      extraFields={(form) => (
        <TextInput
          label="Portal name"
          description="Usually your company or property name. You can change it later."
          placeholder="e.g. Harbor View Apartments"
          autoComplete="organization"
          key={form.key('portalName')}
          {...form.getInputProps('portalName')}
        />
      )}
      schema={createAccountSchema}
      toPayload={toPayload}
      signup={createAccount}
      emailTakenMessage="An account with this email already exists"
      offerSignIn
      welcome={{ title: 'Welcome to Latchkey', message: 'Your account and portal are ready.' }}
      next={paths.auth.landing.href()}
    />
  );
}
