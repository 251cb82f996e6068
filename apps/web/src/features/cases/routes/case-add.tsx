import { zodResolver } from '@hookform/resolvers/zod';
import { subjectCreate } from '@kestrel/domain';
import {
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { cases } from '../../../api/cases';
import { processes as processList } from '../../../api/processes';
import { ApiFailure } from '../../../api/resource';
import { subjects } from '../../../api/subjects';
import { DateSelector } from '../../../components/date-selector';
import { applyServerFieldErrors } from '../../../components/form-kit';
import { PhoneField } from '../../../components/phone-field';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { CaseCost } from '../../ops-pricebooks';

interface SubjectOption {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
}
const label = (s: SubjectOption) => `${s.first_name} ${s.last_name} (${s.email})`;

/** A new subject: the server's own rules (contract: subjectCreate). */
const newSubject = subjectCreate;
const schema = z.discriminatedUnion('mode', [
  z.object({
    mode: z.literal('existing'),
    process: z.string({ error: 'Required' }).min(1, 'Required'),
    subject: z.string({ error: 'Required' }).min(1, 'Required'),
  }),
  z.object({
    mode: z.literal('new'),
    process: z.string({ error: 'Required' }).min(1, 'Required'),
    new_subject: newSubject,
  }),
]);
type In = z.input<typeof schema>;
type Out = z.output<typeof schema>;

function useSubjectOptions(search: string, preselected: string | null) {
  const [debounced] = useDebouncedValue(search, 250);
  const found = useQuery({
    ...subjects.listOptions({ search: debounced || undefined, page_size: 20 }),
    select: (page) => page.results,
  });
  const chosen = useQuery({
    ...subjects.itemOptions(preselected ?? '', { quiet: true }),
    enabled: Boolean(preselected),
  });
  const all = [...(chosen.data ? [chosen.data] : []), ...(found.data ?? [])];
  const unique = all.filter((s, i) => all.findIndex((o) => o.id === s.id) === i);
  return unique.map((s) => ({ value: String(s.id), label: label(s) }));
}

/** Open a case under a process for an existing subject or a new one. */
export default function CaseAdd() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { can } = useRights();
  const mayAddSubject = can('subjects.add_subject');
  const preselected = params.get('subject');
  const [subjectSearch, setSubjectSearch] = useState('');
  const subjectOptions = useSubjectOptions(subjectSearch, preselected);
  const processes = useQuery({
    ...processList.listOptions({ is_active: true, page_size: 100 }),
    select: (page) => page.results,
  });
  const form = useForm<In, unknown, Out>({
    resolver: zodResolver(schema),
    defaultValues: {
      mode: preselected || !mayAddSubject ? 'existing' : 'new',
      process: params.get('process') ?? '',
      subject: preselected ?? '',
    },
    shouldUnregister: true,
  });
  const mode = form.watch('mode');
  const save = cases.useSave();
  const { errors } = form.formState;
  const subjectErrors = 'new_subject' in errors ? errors.new_subject : undefined;
  const subjectError = 'subject' in errors ? errors.subject?.message : undefined;

  const submit = form.handleSubmit(async (values) => {
    const body =
      values.mode === 'existing'
        ? { process: Number(values.process), subject: Number(values.subject) }
        : { process: Number(values.process), new_subject: values.new_subject };
    try {
      const created = await save.mutateAsync({ values: body });
      navigate(href('case-detail', { id: created.id }));
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 400) {
        // The new subject's errors come nested (`new_subject: {email: [...]}`, flattened by the
        // kit) or as `new_subject__email`.
        const body = Object.fromEntries(
          Object.entries(error.body).map(([k, v]) => [
            k.replace(/^new_subject__/, 'new_subject.'),
            v,
          ]),
        );
        applyServerFieldErrors<In>(form, body, [
          'process',
          'subject',
          'new_subject.first_name',
          'new_subject.last_name',
          'new_subject.email',
          'new_subject.phone_number',
          'new_subject.dob',
        ]);
      }
    }
  });

  return (
    <Stack gap="lg" maw={820}>
      <Title order={1}>Add case</Title>
      <form onSubmit={submit} noValidate>
        <Stack gap="lg">
          <Paper withBorder radius="lg" p="xl">
            <Controller
              control={form.control}
              name="process"
              render={({ field, fieldState }) => (
                <Select
                  label="Process"
                  description="The checks the case runs come from its process"
                  required
                  placeholder="Choose a process"
                  data={(processes.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
                  value={field.value || null}
                  onChange={(v) => field.onChange(v ?? '')}
                  onBlur={field.onBlur}
                  error={fieldState.error?.message}
                  searchable
                />
              )}
            />
            <CaseCost processId={form.watch('process') ?? ''} />
          </Paper>
          <Paper withBorder radius="lg" p="xl">
            <Stack gap="md">
              <Group justify="space-between">
                <Text fw={650}>Subject</Text>
                {mayAddSubject && (
                  <Controller
                    control={form.control}
                    name="mode"
                    render={({ field }) => (
                      <SegmentedControl
                        aria-label="Subject"
                        data={[
                          { value: 'new', label: 'New subject' },
                          { value: 'existing', label: 'Existing subject' },
                        ]}
                        value={field.value}
                        onChange={field.onChange}
                      />
                    )}
                  />
                )}
              </Group>
              {mode === 'existing' ? (
                <Controller
                  control={form.control}
                  name="subject"
                  render={({ field }) => (
                    <Select
                      label="Find a subject"
                      placeholder="Type a name or email"
                      required
                      searchable
                      data={subjectOptions}
                      filter={({ options }) => options}
                      searchValue={subjectSearch}
                      onSearchChange={setSubjectSearch}
                      value={field.value || null}
                      onChange={(v) => field.onChange(v ?? '')}
                      error={subjectError}
                      nothingFoundMessage="No subject found"
                    />
                  )}
                />
              ) : (
                <Stack gap="md">
                  <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
                    <TextInput
                      label="First name"
                      required
                      error={subjectErrors?.first_name?.message}
                      {...form.register('new_subject.first_name')}
                    />
                    <TextInput
                      label="Middle name"
                      error={subjectErrors?.middlename?.message}
                      {...form.register('new_subject.middlename')}
                    />
                    <TextInput
                      label="Last name"
                      required
                      error={subjectErrors?.last_name?.message}
                      {...form.register('new_subject.last_name')}
                    />
                  </SimpleGrid>
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                    <TextInput
                      label="Email"
                      type="email"
                      required
                      description="The invitation to the portal goes here"
                      error={subjectErrors?.email?.message}
                      {...form.register('new_subject.email')}
                    />
                    <PhoneField
                      error={subjectErrors?.phone_number?.message}
                      {...form.register('new_subject.phone_number')}
                    />
                  </SimpleGrid>
                  <Controller
                    control={form.control}
                    name="new_subject.dob"
                    render={({ field, fieldState }) => (
                      <DateSelector
                        label="Date of birth"
                        required={false}
                        value={typeof field.value === 'string' ? field.value : null}
                        onChange={(v) => field.onChange(v ?? '')}
                        error={fieldState.error?.message}
                      />
                    )}
                  />
                </Stack>
              )}
            </Stack>
          </Paper>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => navigate(href('cases'))}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Add case
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
