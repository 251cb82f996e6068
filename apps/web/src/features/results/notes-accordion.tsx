import { canSaveNotes, formatDate, MESSAGES, NOTES_MAX_LENGTH, NOTES_ROWS } from '@kestrel/domain';
import { Accordion, Button, Group, List, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { notify } from '../../lib/notify';
import { notesHistory, saveNotes } from './results-api';

function NotesHistory({
  activityId,
  opened,
  onClose,
}: {
  activityId: number;
  opened: boolean;
  onClose: () => void;
}) {
  const history = useQuery({
    queryKey: ['/api/ops/case-activities/', 'notes', activityId],
    queryFn: async () => {
      const r = await notesHistory(activityId);
      if (!r.ok) throw new Error('Error getting list of notes');
      return r.data.results;
    },
    enabled: opened,
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Notes history" size="lg">
      {history.data?.length === 0 && <Text c="dimmed">No notes have been saved yet.</Text>}
      {history.isError && <Text c="red">Error getting list of notes</Text>}
      <List spacing="sm" listStyleType="none" data-testid="notes-history">
        {history.data?.map((n) => (
          <List.Item key={n.id}>
            <Text size="sm" fw={600}>
              {`${n.actor_first_name} ${n.actor_last_name}`.trim()} · {formatDate(n.timestamp)}{' '}
              {new Date(n.timestamp).toISOString().slice(11, 16)}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {n.description}
            </Text>
          </List.Item>
        ))}
      </List>
    </Modal>
  );
}

/**
 * The notes accordion (operations sessions only, spec point 2): a 4-row text area, Save
 * disabled over 400 characters ('Max length 400'), and the history in a dialog.
 */
export function NotesAccordion({ activityId, notes }: { activityId: number; notes: string }) {
  const [value, setValue] = useState(notes);
  const [saving, setSaving] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const fieldId = `notes-${activityId}`;
  const tooLong = !canSaveNotes(value);
  const save = async () => {
    setSaving(true);
    const r = await saveNotes(activityId, value);
    setSaving(false);
    if (r.ok) notify.success('Successfully added notes');
    else notify.error('Error adding notes');
  };
  return (
    <Accordion variant="separated" chevronPosition="left" data-testid="notes-accordion">
      <Accordion.Item value="notes">
        <Accordion.Control>Notes</Accordion.Control>
        <Accordion.Panel>
          <Stack gap="xs">
            <Textarea
              id={fieldId}
              label="Notes"
              rows={NOTES_ROWS}
              value={value}
              onChange={(e) => setValue(e.currentTarget.value)}
              error={tooLong ? MESSAGES.notesMaxLength : undefined}
              description={`${value.length} / ${NOTES_MAX_LENGTH}`}
            />
            <Group justify="flex-end" gap="sm">
              <Button h={44} variant="default" onClick={() => setHistoryOpen(true)}>
                History
              </Button>
              <Button h={44} onClick={save} disabled={tooLong} loading={saving}>
                Save
              </Button>
            </Group>
          </Stack>
          <NotesHistory
            activityId={activityId}
            opened={historyOpen}
            onClose={() => setHistoryOpen(false)}
          />
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
