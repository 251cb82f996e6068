import type { RequirementOut } from '@kestrel/domain';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { request } from '../../../api/client';
import { actionSuccessMessage, failureMessage } from '../../../api/messages';
import { type Process, processes, type Requirement } from '../../../api/processes';
import { notify } from '../../../lib/notify';
import { useRights } from '../../../lib/rights';
import { ProcessFrame } from '../components/process-frame';
import {
  type RequirementErrors,
  RequirementsEditor,
  validateRequirements,
} from '../components/requirements-editor';

const strip = (list: Requirement[]) =>
  list.map((r) => ({ activity_type: r.activity_type, config: r.config }));

function Requirements({ process }: { process: Process }) {
  const rights = useRights();
  const editable = rights.can('processes.change_process') && process.can_edit_requirements;
  const [value, setValue] = useState<Requirement[]>(process.requirements);
  const [errors, setErrors] = useState<RequirementErrors>({});
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: async (list: Requirement[]) => {
      const r = await request<RequirementOut[]>(
        'PUT',
        `/api/processes/${process.id}/requirements/`,
        {
          body: strip(list),
          expect: 200,
        },
      );
      if (!r.ok) {
        const message = failureMessage(r, {
          action: 'update',
          name: 'requirements',
          showBackendErrors: true,
        });
        if (message) notify.error(message);
        return;
      }
      notify.success(actionSuccessMessage('update', 'requirements'));
      await client.invalidateQueries({ queryKey: processes.key });
    },
  });
  const submit = () => {
    const found = validateRequirements(value);
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate(value);
  };
  const dirty = JSON.stringify(strip(value)) !== JSON.stringify(strip(process.requirements));
  return (
    <Stack gap="md" maw={880}>
      {!editable && (
        <Alert color="gray" variant="light" title="Read only">
          Requirements can be edited only by operations staff or in a demo organisation. Contact
          support to change the checks this process runs.
        </Alert>
      )}
      <Text size="sm" c="dimmed">
        Changes apply to new cases; existing cases keep their checks.
      </Text>
      <RequirementsEditor value={value} onChange={setValue} errors={errors} readOnly={!editable} />
      {editable && (
        <Group justify="flex-end">
          <Button
            variant="default"
            disabled={!dirty}
            onClick={() => setValue(process.requirements)}
          >
            Discard changes
          </Button>
          <Button onClick={submit} loading={save.isPending} disabled={!dirty}>
            Save requirements
          </Button>
        </Group>
      )}
    </Stack>
  );
}

export default function ProcessRequirements() {
  return <ProcessFrame>{(p) => <Requirements process={p} />}</ProcessFrame>;
}
