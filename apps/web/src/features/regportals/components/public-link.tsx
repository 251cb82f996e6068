import { Anchor, Button, Group, Image, Modal, Stack, Text } from '@mantine/core';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { copyText } from '../../../components/copy-button';
import { Icon } from '../../../components/icons';

/** The address people open: this site's origin and the portal's public link. */
export const absoluteLink = (publicLink: string) => `${window.location.origin}${publicLink}`;

/** A QR code of `url` as a PNG data URL (null until drawn, or when it cannot be). */
function useQrCode(url: string, enabled: boolean): string | null {
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    QRCode.toDataURL(url, { margin: 2, width: 320, errorCorrectionLevel: 'M' })
      .then((data) => {
        if (current) setQr(data);
      })
      .catch(() => {
        if (current) setQr(null);
      });
    return () => {
      current = false;
    };
  }, [url, enabled]);
  return qr;
}

/** Prints the QR code alone, with the title and the link under it (a window of its own). */
function printQr(qr: string, title: string, url: string) {
  const w = window.open('', '_blank', 'noopener=no,width=480,height=640');
  if (!w) return;
  const doc = w.document;
  doc.title = title;
  const box = doc.createElement('div');
  box.style.cssText = 'font-family:sans-serif;text-align:center;padding:24px';
  const h = doc.createElement('h1');
  h.textContent = title;
  h.style.fontSize = '22px';
  const img = doc.createElement('img');
  img.src = qr;
  img.alt = `QR code for ${url}`;
  img.style.width = '320px';
  const p = doc.createElement('p');
  p.textContent = url;
  p.style.fontSize = '14px';
  box.append(h, img, p);
  doc.body.append(box);
  img.onload = () => w.print();
}

/**
 * A portal's public link: the address, a copy button ('Copied'), and a QR code to show, download
 * or print.
 */
export function PublicLink({
  title,
  publicLink,
  compact = false,
}: {
  title: string;
  publicLink: string;
  compact?: boolean;
}) {
  const url = absoluteLink(publicLink);
  const [open, setOpen] = useState(false);
  const qr = useQrCode(url, open);
  return (
    <Stack gap={compact ? 4 : 'xs'}>
      <Anchor
        href={publicLink}
        target="_blank"
        rel="noreferrer"
        size="sm"
        style={{ overflowWrap: 'anywhere' }}
        data-testid="public-link"
      >
        {compact ? publicLink : url}
      </Anchor>
      <Group gap="xs" wrap="wrap">
        <Button
          variant="default"
          size="compact-sm"
          leftSection={<Icon name="copy" size={14} />}
          onClick={() => void copyText(url)}
          aria-label={`Copy link of ${title}`}
        >
          Copy link
        </Button>
        <Button
          variant="default"
          size="compact-sm"
          onClick={() => setOpen(true)}
          aria-label={`QR code of ${title}`}
        >
          QR code
        </Button>
      </Group>
      <Modal opened={open} onClose={() => setOpen(false)} title={`QR code: ${title}`} centered>
        <Stack gap="md" align="center">
          {qr ? (
            <Image src={qr} alt={`QR code for ${url}`} w={280} h={280} data-testid="qr-code" />
          ) : (
            <Text size="sm" c="dimmed" role="status">
              Drawing the QR code…
            </Text>
          )}
          <Text size="sm" ta="center" style={{ overflowWrap: 'anywhere' }}>
            {url}
          </Text>
          <Group justify="center" gap="sm">
            <Button
              component="a"
              href={qr ?? undefined}
              download={`${publicLink.split('/').pop() ?? 'portal'}-qr.png`}
              variant="default"
              disabled={!qr}
            >
              Download
            </Button>
            <Button disabled={!qr} onClick={() => qr && printQr(qr, title, url)}>
              Print
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
