import { LICENCE_NUMBER_MAX, LICENCE_TEXT_MAX, MESSAGES, maxCharacters } from '@kestrel/domain';
import { Button, Group, Modal, SimpleGrid } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { subjects } from '../../../api/subjects';
import {
  DateField,
  KitForm,
  SelectField,
  TextareaField,
  TextField,
  useKitForm,
} from '../../../components/form-kit';
import { type Licence, licenceDefinitions, licences } from '../api';

// The form's own shape (choices are strings); the server applies licenceCreate's rules and its
// answer lands on these same field names.
const required = z.string().min(1, MESSAGES.required);
const issueForm = z.object({
  definition: required,
  holder: required,
  number: z.string().trim().max(LICENCE_NUMBER_MAX, maxCharacters(LICENCE_NUMBER_MAX)),
  issue_date: z.string(),
  conditions: z.string().trim().max(LICENCE_TEXT_MAX, maxCharacters(LICENCE_TEXT_MAX)),
});
type IssueValues = z.input<typeof issueForm>;
type IssueOut = z.output<typeof issueForm>;

/** The body of POST /api/lms/licences/: blanks left out (the next number, today). */
function issueBody(v: IssueOut) {
  return {
    definition: Number(v.definition),
    holder: Number(v.holder),
    ...(v.number ? { number: v.number.toUpperCase() } : {}),
    ...(v.issue_date ? { issue_date: v.issue_date } : {}),
    conditions: v.conditions,
  };
}

function IssueForm({ onDone, onIssued }: { onDone: () => void; onIssued: (l: Licence) => void }) {
  const save = licences.useSave();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const definitions = licenceDefinitions.useList({ page_size: 100 });
  const holders = useQuery({
    ...subjects.listOptions({ search: debounced || undefined, page_size: 20 }),
    select: (page) => page.results,
  });
  const kit = useKitForm<IssueValues, IssueOut, Licence>({
    schema: issueForm,
    defaultValues: { definition: '', holder: '', number: '', issue_date: '', conditions: '' },
    submit: (values) => save.mutateAsync({ values: issueBody(values) }),
    onSaved: (l) => {
      onDone();
      onIssued(l);
    },
  });
  // The chosen holder stays an option while the search (now its label) finds others or none.
  const chosen = kit.form.watch('holder');
  const found = (holders.data ?? []).map((s) => ({
    value: String(s.id),
    label: `${s.first_name} ${s.last_name} (${s.email})`,
  }));
  const [kept, setKept] = useState<{ value: string; label: string } | null>(null);
  const keptOption = kept?.value === chosen ? [kept] : [];
  const holderOptions = [...keptOption, ...found.filter((o) => o.value !== kept?.value)];
  return (
    <KitForm kit={kit} aria-label="Issue licence">
      <SelectField
        control={kit.form.control}
        name="definition"
        label="Licence definition"
        placeholder="Choose a licence definition"
        data={(definitions.data?.results ?? []).map((d) => ({
          value: String(d.id),
          label: `${d.name} (${d.sub_group_name})`,
        }))}
        searchable
        required
      />
      <SelectField
        control={kit.form.control}
        name="holder"
        label="Holder"
        placeholder="Search your subjects by name or email"
        data={holderOptions}
        searchable
        searchValue={search}
        onSearchChange={(v) => {
          setSearch(v);
          const option = found.find((o) => o.label === v);
          if (option) setKept(option);
        }}
        filter={({ options }) => options}
        nothingFoundMessage="No subject found"
        required
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField
          control={kit.form.control}
          name="number"
          label="Licence number"
          description="Leave blank for the next number"
          transform={(v) => v.toUpperCase()}
        />
        <DateField
          control={kit.form.control}
          name="issue_date"
          label="Issue date"
          required={false}
          description="Blank: today. The expiry follows from the licence's duration."
        />
      </SimpleGrid>
      <TextareaField
        size="md"
        control={kit.form.control}
        name="conditions"
        label="Conditions"
        autosize
        minRows={2}
        maxRows={8}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={kit.saving}>
          Issue licence
        </Button>
      </Group>
    </KitForm>
  );
}

/**
 * 'Issue licence': a licence of one of the council's definitions to one of its subjects, outside
 * an application (a licence carried over from a previous system); it opens once issued.
 */
export function IssueLicence({ onIssued }: { onIssued: (l: Licence) => void }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button onClick={() => setOpened(true)}>Issue licence</Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Issue a licence" size="lg">
        {opened && <IssueForm onDone={() => setOpened(false)} onIssued={onIssued} />}
      </Modal>
    </>
  );
}
