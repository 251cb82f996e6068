import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { type SubjectInput, subjectSchema, subjects } from '../../../api/subjects';
import { useResourceForm } from '../../../components/resource-form';
import { href } from '../../../config/paths';
import { SubjectFields } from '../components/subject-fields';

const empty: SubjectInput = {
  first_name: '',
  middlename: '',
  last_name: '',
  email: '',
  dob: '',
  phone_number: '',
};

export default function SubjectAdd() {
  const navigate = useNavigate();
  const { form, onSubmit, saving } = useResourceForm({
    resource: subjects,
    schema: subjectSchema,
    defaultValues: empty,
    onSaved: (s) => navigate(href('subject', { id: s.id })),
  });
  return (
    <Stack gap="lg" maw={820}>
      <Title order={1}>Add subject</Title>
      <Paper withBorder radius="lg" p="xl">
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="lg">
            <SubjectFields form={form} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => navigate(href('subjects'))}>
                Cancel
              </Button>
              <Button type="submit" loading={saving}>
                Add subject
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
