/**
 * An HTTPS front with HTTP/2 for the browser benches, as a deployment puts a TLS proxy (nginx,
 * Caddy, a load balancer) in front of the server (README, "Deploying"): browsers speak HTTP/2 to
 * it, and it forwards each request over HTTP/1.1 to the server, naming the client in
 * X-Forwarded-For. Its certificate is made for 127.0.0.1 at start (openssl) and trusted by nobody:
 * the bench's Chromium runs with --ignore-certificate-errors.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';

/** Headers that belong to one hop (RFC 9110 §7.6.1) or to HTTP/2 itself: not forwarded. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'http2-settings',
]);

export interface Front {
  origin: string;
  close: () => Promise<void>;
}

function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-front-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return {
      key: fs.readFileSync(path.join(dir, 'key.pem')),
      cert: fs.readFileSync(path.join(dir, 'cert.pem')),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts the front for `backend` (an http:// origin) on a free port of 127.0.0.1. */
export async function startHttp2Front(backend: string): Promise<Front> {
  const target = new URL(backend);
  const server = http2.createSecureServer({ ...selfSignedCertificate(), allowHTTP1: true });
  server.on('request', (request: http2.Http2ServerRequest, response: http2.Http2ServerResponse) => {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (!name.startsWith(':') && !HOP_HEADERS.has(name)) headers[name] = value;
    }
    headers.host = request.headers[':authority'] ?? request.headers.host ?? target.host;
    headers['x-forwarded-proto'] = 'https';
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers },
      (answer) => {
        const back: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (!HOP_HEADERS.has(name) && value !== undefined) back[name] = value;
        }
        response.writeHead(answer.statusCode ?? 502, back);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `https://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
