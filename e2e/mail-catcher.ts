// A real SMTP server for the browser tests: the portal under test sends its mail here (SMTP_URL),
// and the tests read what arrived over HTTP (GET /messages), as a person would read their inbox.
// Started by playwright.config.ts next to the portal.
import http from 'node:http';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
  receivedAt: string;
}

const smtpPort = Number(process.env.SMTP_PORT ?? 3325);
const httpPort = Number(process.env.HTTP_PORT ?? 3326);
const caught: CaughtMail[] = [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['AUTH', 'STARTTLS'],
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((parsed) => {
        caught.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          receivedAt: new Date().toISOString(),
        });
        callback();
      })
      .catch((error: Error) => callback(error));
  },
});
smtp.listen(smtpPort, '127.0.0.1');

http
  .createServer((request, response) => {
    if (request.url !== '/messages') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(caught));
  })
  .listen(httpPort, '127.0.0.1', () => {
    console.log(`mail catcher: SMTP on ${smtpPort}, messages at http://127.0.0.1:${httpPort}/messages`);
  });
