import { isPermission, USER_ADMIN_MESSAGES, userCreate } from '@kestrel/domain';
import { SimpleGrid, Stack } from '@mantine/core';
import type { Control } from 'react-hook-form';
import { z } from 'zod';
import {
  EmailField,
  type KitFormState,
  MultiSelectField,
  TextField,
  useKitForm,
} from '../../../components/form-kit';
import { useRights } from '../../../lib/rights';
import { roles, segmentChoices, type User, users } from '../api';

/** The pickers hold ids as strings; the contract takes numbers. */
const ids = z.array(z.coerce.number().int().positive()).max(100);

/**
 * The form of a user (contract: userCreate, the pickers' ids as strings). Editing shows the
 * email without changing it and sends the rest (userUpdate, partial: deactivation is its own
 * action).
 */
export const userForm = userCreate.extend({ roles: ids, segments: ids });
export type UserValues = z.input<typeof userForm>;
type UserOutput = z.output<typeof userForm>;

/** Invites a user (POST /api/users/), or edits `user` (PATCH /api/users/{id}/). */
export function useUserForm(
  user: User | undefined,
  onSaved: (u: User) => void,
): KitFormState<UserValues, UserOutput> {
  const save = users.useSave({ partial: true });
  return useKitForm({
    schema: userForm,
    defaultValues: user
      ? {
          email: user.email,
          first_name: user.first_name,
          last_name: user.last_name,
          job_title: user.job_title,
          roles: user.roles.map(String),
          segments: user.segments.map(String),
        }
      : { email: '', first_name: '', last_name: '', job_title: '', roles: [], segments: [] },
    submit: ({ email, ...rest }) =>
      save.mutateAsync(user ? { id: user.id, values: rest } : { values: { email, ...rest } }),
    onSaved,
  });
}

/**
 * A user's fields: email (fixed once invited), names, job title, roles and segments. A role with
 * a permission the signed-in user lacks cannot be picked unless the user holds it already
 * (`held`; decision 028: no one gives more than they hold).
 */
export function UserFields({
  control,
  editing,
  held = [],
}: {
  control: Control<UserValues, unknown, UserOutput>;
  editing: boolean;
  held?: readonly number[];
}) {
  const { can } = useRights();
  const roleList = roles.useList({ page_size: 100 });
  const segmentList = segmentChoices.useList({ page_size: 100 });
  const givable = (permissions: readonly string[]) =>
    permissions.every((p) => isPermission(p) && can(p));
  const roleData = (roleList.data?.results ?? []).map((r) => ({
    value: String(r.id),
    label: r.name,
    disabled: !held.includes(r.id) && !givable(r.permissions),
  }));
  const limited = roleData.some((r) => r.disabled);
  const segmentData = (segmentList.data?.results ?? []).map((s) => ({
    value: String(s.id),
    label: s.name,
  }));
  return (
    <Stack gap="md">
      <EmailField
        control={control}
        name="email"
        label="Email"
        description={
          editing
            ? 'Their sign-in name: it does not change'
            : 'The invitation goes here; it is also their sign-in name'
        }
        disabled={editing}
        required
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField
          control={control}
          name="first_name"
          label="First name"
          autoComplete="given-name"
          required
        />
        <TextField
          control={control}
          name="last_name"
          label="Last name"
          autoComplete="family-name"
          required
        />
      </SimpleGrid>
      <TextField control={control} name="job_title" label="Job title" />
      <MultiSelectField
        control={control}
        name="roles"
        label="Roles"
        description={
          limited
            ? `What they may do: each role's permissions are on the Roles tab of Users. ${USER_ADMIN_MESSAGES.grantRoleHint}`
            : "What they may do: each role's permissions are on the Roles tab of Users"
        }
        data={roleData}
        searchable
      />
      <MultiSelectField
        control={control}
        name="segments"
        label="Segments"
        description="Limit them to these segments' cases; none means the whole organisation"
        data={segmentData}
        searchable
      />
    </Stack>
  );
}
