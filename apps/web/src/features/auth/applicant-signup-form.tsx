import {
  emailSchema,
  forenameSchema,
  isoDateSchema,
  passwordStrengthSchema,
  surnameSchema,
} from '@kestrel/domain';
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { request } from '../../api/client';
import { ApiFailure } from '../../api/resource';
import {
  CheckboxField,
  DateField,
  EmailField,
  KitForm,
  PasswordField,
  TextField,
  useKitForm,
} from '../../components/form-kit';
import { href } from '../../config/paths';
import { adoptNewSession } from '../../lib/session/session-actions';

/** The throttled answer (429) in words. */
export const TOO_MANY_SIGNUPS = 'Too many accounts have been made from here. Try again later.';
/** The terms box's error: the account cannot be made without them. */
export const TERMS_REQUIRED = 'You must agree to the terms to create an account.';

const schema = z
  .object({
    first_name: forenameSchema,
    last_name: surnameSchema,
    email: emailSchema,
    dob: isoDateSchema,
    password: passwordStrengthSchema({ minLength: 12 }),
    confirm: z.string(),
    terms_agreed: z.boolean().refine((v) => v, TERMS_REQUIRED),
  })
  .refine((v) => v.password === v.confirm, {
    path: ['confirm'],
    message: 'The passwords do not match.',
  });
type Values = z.input<typeof schema>;
type Output = z.output<typeof schema>;

const EMPTY: Values = {
  first_name: '',
  last_name: '',
  email: '',
  dob: '',
  password: '',
  confirm: '',
  terms_agreed: false,
};
const yearsAgo = (n: number) => {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - n);
  return d.toISOString().slice(0, 10);
};

/**
 * A member of the public applying for a licence makes their account (POST
 * /api/lms/public/applicants/): names, email, date of birth, a password and the terms; signed in,
 * they go back to `next` (the application portal's /s/ form).
 */
export function ApplicantSignupForm({ next }: { next: string }) {
  const navigate = useNavigate();
  const kit = useKitForm<Values, Output, string | undefined>({
    schema,
    defaultValues: EMPTY,
    submit: async ({ confirm: _, ...body }) => {
      const r = await request<{ csrf_token: string }>('POST', '/api/lms/public/applicants/', {
        body,
        expect: 201,
      });
      if (r.ok) return r.data?.csrf_token;
      const detail = typeof r.data.detail === 'string' ? r.data.detail : null;
      throw new ApiFailure(r.status, r.data, r.status === 429 ? TOO_MANY_SIGNUPS : detail);
    },
    onSaved: async (csrf) => {
      await adoptNewSession(csrf);
      navigate(href('bootstrap', {}, { next }), { replace: true });
    },
    failureText: 'Your account could not be created. Try again.',
  });
  const ctl = kit.form.control;
  return (
    <KitForm kit={kit} gap="md" aria-label="Create your account">
      <TextField
        control={ctl}
        name="first_name"
        label="First name"
        autoComplete="given-name"
        required
      />
      <TextField
        control={ctl}
        name="last_name"
        label="Last name"
        autoComplete="family-name"
        required
      />
      <EmailField control={ctl} name="email" label="Email address" required />
      <DateField
        control={ctl}
        name="dob"
        label="Date of birth"
        required
        min={yearsAgo(100)}
        max={yearsAgo(18)}
      />
      <PasswordField
        control={ctl}
        name="password"
        label="Password"
        description="At least 12 characters."
        autoComplete="new-password"
        required
      />
      <PasswordField
        control={ctl}
        name="confirm"
        label="Confirm password"
        autoComplete="new-password"
        required
      />
      <CheckboxField
        control={ctl}
        name="terms_agreed"
        label="I agree to the terms of use and the privacy notice"
      />
      <Stack gap="xs">
        <Button type="submit" size="md" fullWidth loading={kit.saving}>
          Create account
        </Button>
        <Text size="sm" c="dimmed" ta="center">
          Already have an account?{' '}
          <Anchor component={Link} to={href('login', {}, { next, subject: 'y' })}>
            Sign in
          </Anchor>
        </Text>
      </Stack>
    </KitForm>
  );
}
