import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { processes, type Requirement } from '../../../api/processes';
import { ApiFailure } from '../../../api/resource';
import { applyServerFieldErrors } from '../../../components/form-kit';
import { href } from '../../../config/paths';
import { useRights } from '../../../lib/rights';
import { type ProcessDetails, processDetailsSchema } from '../components/process-schema';
import {
  type RequirementErrors,
  RequirementsEditor,
  validateRequirements,
} from '../components/requirements-editor';

/**
 * A new process: its name and the checks its cases run. Only operations staff or a demo
 * organisation choose checks (spec point 6); a customer administrator adds the details and
 * asks operations for the checks.
 */
export default function ProcessAdd() {
  const navigate = useNavigate();
  const { editsRequirements } = useRights();
  const [requirements, setRequirements] = useState<Requirement[]>([]);
  const [reqErrors, setReqErrors] = useState<RequirementErrors>({});
  const [reqMessage, setReqMessage] = useState<string | null>(null);
  const form = useForm<ProcessDetails>({
    resolver: zodResolver(processDetailsSchema),
    defaultValues: { name: '', description: '', is_active: true },
  });
  const save = processes.useSave();
  const { errors } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    if (editsRequirements) {
      const found = validateRequirements(requirements);
      setReqErrors(found);
      setReqMessage(requirements.length === 0 ? 'Choose at least one check' : null);
      if (requirements.length === 0 || Object.keys(found).length > 0) return;
    }
    try {
      const created = await save.mutateAsync({
        values: { ...values, requirements: editsRequirements ? requirements : [] },
      });
      navigate(href('process', { id: created.id }));
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 400) {
        applyServerFieldErrors<ProcessDetails>(form, error.body, ['name', 'description']);
      }
    }
  });
  return (
    <Stack gap="lg" maw={880}>
      <Title order={1}>Add process</Title>
      <form onSubmit={submit} noValidate>
        <Stack gap="lg">
          <Paper withBorder radius="lg" p="xl">
            <Stack gap="md">
              <TextInput
                label="Name"
                required
                error={errors.name?.message}
                {...form.register('name')}
              />
              <Textarea
                label="Description"
                autosize
                minRows={2}
                error={errors.description?.message}
                {...form.register('description')}
              />
            </Stack>
          </Paper>
          <Stack gap="xs">
            <Title order={2} size="h3">
              Checks
            </Title>
            <Text size="sm" c="dimmed">
              Every case opened under this process runs these checks.
            </Text>
            {editsRequirements ? (
              <>
                {reqMessage && (
                  <Text size="sm" c="red" role="alert">
                    {reqMessage}
                  </Text>
                )}
                <RequirementsEditor
                  value={requirements}
                  onChange={setRequirements}
                  errors={reqErrors}
                />
              </>
            ) : (
              <Alert color="blue" title="Operations choose the checks" data-testid="checks-locked">
                Only operations staff can choose the checks of your organisation's processes. Add
                the process with its name and description now, then{' '}
                <Anchor component={Link} to={href('support')} inherit>
                  ask support
                </Anchor>{' '}
                to add the checks it needs. Until then, open cases under an existing process.
              </Alert>
            )}
          </Stack>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => navigate(href('processes'))}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Add process
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
