import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, ManualClock } from '../../test/helpers.js';
import type { Database } from '../db/connection.js';
import { createMailer, OutboxMailer, SmtpMailer } from './mailer.js';
import { runAsSystem } from './service-context.js';
import { outboxEmails } from './tables/outbox.table.js';

/** A minimal SMTP server that records what it receives. */
function smtpServer(received: string[]): Server {
  return createServer((socket) => {
    let inData = false;
    let buffer = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      let i = buffer.indexOf('\r\n');
      while (i >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            socket.write('250 OK queued\r\n');
          } else {
            received.push(line);
          }
        } else if (/^(EHLO|HELO)/i.test(line)) {
          socket.write('250-test\r\n250 8BITMIME\r\n');
        } else if (/^DATA/i.test(line)) {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (/^QUIT/i.test(line)) {
          socket.end('221 bye\r\n');
        } else {
          socket.write('250 OK\r\n');
        }
        i = buffer.indexOf('\r\n');
      }
    });
  });
}

let db: Database;
let drop: () => Promise<void>;
const deps = () => ({ db, clock: new ManualClock(new Date()) });
beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
});
afterAll(() => drop());

describe('mail providers', () => {
  it('defaults to the outbox table, SMTP when configured', async () => {
    expect(createMailer(null, 'a@b.test')).toBeInstanceOf(OutboxMailer);
    expect(createMailer('smtp://127.0.0.1:2525', 'a@b.test')).toBeInstanceOf(SmtpMailer);
    await runAsSystem(deps(), (ctx) =>
      new OutboxMailer().send({ to: 'x@y.test', subject: 'Hi', text: 'Body' }, ctx),
    );
    const rows = await db.ownerTransaction((tx) => tx.select().from(outboxEmails));
    expect(rows).toMatchObject([{ to: 'x@y.test', subject: 'Hi', text: 'Body', html: null }]);
  });

  it('sends through SMTP', async () => {
    const received: string[] = [];
    const server = smtpServer(received);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const smtp = new SmtpMailer(`smtp://127.0.0.1:${port}`, 'Kestrel <no-reply@kestrel.test>');
    await runAsSystem(deps(), (ctx) =>
      smtp.send(
        { to: 'someone@example.test', subject: 'Reset your password', text: 'Open the link' },
        ctx,
      ),
    );
    server.close();
    expect(received).toContain('Subject: Reset your password');
    expect(received).toContain('To: someone@example.test');
    expect(received.join('\n')).toContain('Open the link');
  });

  it("sends a branded email from the brand's name at MAIL_FROM's address, with both parts", async () => {
    const received: string[] = [];
    const server = smtpServer(received);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const smtp = new SmtpMailer(`smtp://127.0.0.1:${port}`, 'Kestrel <no-reply@kestrel.test>');
    await runAsSystem(deps(), (ctx) =>
      smtp.send(
        {
          to: 'someone@example.test',
          subject: 'Reset your Harrier Vetting password',
          text: 'Open the link',
          html: '<p>Open the link</p>',
          fromName: 'Harrier Vetting',
        },
        ctx,
      ),
    );
    server.close();
    const all = received.join('\n');
    expect(received).toContain('From: Harrier Vetting <no-reply@kestrel.test>');
    expect(all).toContain('Content-Type: text/plain');
    expect(all).toContain('Content-Type: text/html');
  });
});
