import { ActionIcon, Tooltip } from '@mantine/core';
import { MESSAGES_UI } from '../api/messages';
import { notify } from '../lib/notify';
import { Icon } from './icons';

/** Copies a value (an id, a key) and says 'Copied' or 'Error copying'. */
export async function copyText(value: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(value);
    notify.success(MESSAGES_UI.copied);
    return true;
  } catch {
    notify.error(MESSAGES_UI.copyError);
    return false;
  }
}

export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon
        variant="default"
        aria-label={label}
        onClick={() => void copyText(value)}
        size="md"
      >
        <Icon name="copy" size={16} />
      </ActionIcon>
    </Tooltip>
  );
}
