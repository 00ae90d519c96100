import { createServer, type Server, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message a test SMTP server accepted: its envelope, headers and decoded text body. */
export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  headers: Map<string, string>;
  /** The text part, quoted-printable decoded. */
  text: string;
  raw: string;
}

export interface SmtpInbox {
  port: number;
  messages: ReceivedMail[];
  /** The `smtp://` URL of this server, with credentials when given. */
  url(credentials?: { user: string; pass: string }): string;
  close(): Promise<void>;
}

/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1 and a free port. With `auth`, it
 * refuses every sender but that user and password; without, it takes mail from anyone.
 * Plain SMTP without STARTTLS: the test has no certificate the service would trust. With `neverAccept`,
 * it reads each message and never answers it: a server that is slow at the last step.
 */
export async function startSmtpInbox(auth?: { user: string; pass: string }, options: { neverAccept?: boolean } = {}): Promise<SmtpInbox> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: auth === undefined,
    allowInsecureAuth: true,
    logger: false,
    onAuth(credentials, _session, callback) {
      if (auth && credentials.username === auth.user && credentials.password === auth.pass) {
        callback(null, { user: credentials.username });
        return;
      }
      callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (options.neverAccept) return;
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push(parsed(raw, session.envelope));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    messages,
    url: (credentials) =>
      credentials
        ? `smtp://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}@127.0.0.1:${port}`
        : `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A TCP server that accepts connections and never says a word: a mail server too slow to greet. */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on: one a server just had and gave back. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function parsed(raw: string, envelope: { mailFrom: false | { address: string }; rcptTo: Array<{ address: string }> }): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  const body = raw.slice(split + 4);
  const quotedPrintable = /quoted-printable/i.test(headers.get('content-transfer-encoding') ?? '');
  const text = quotedPrintable
    ? Buffer.from(
        body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8')
    : body;
  return {
    envelopeFrom: envelope.mailFrom ? envelope.mailFrom.address : '',
    envelopeTo: envelope.rcptTo.map((recipient) => recipient.address),
    headers,
    text,
    raw,
  };
}
