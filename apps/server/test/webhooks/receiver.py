#!/usr/bin/python3
"""A webhook receiver written apart from the server: it checks each request exactly as the Standard
Webhooks specification documents (https://www.standardwebhooks.com, "Verifying webhook
authenticity"), with Python's own hmac, hashlib and base64 -- an implementation independent of the
server's node:crypto.

  receiver.py serve SECRET [FAIL_FIRST]   answers on 127.0.0.1 (the port is printed first), fails
                                          the first FAIL_FIRST verified attempts of each message
                                          with 500, then accepts (200) and processes it once
  receiver.py verify SECRET               reads {"headers", "body", "now"} on stdin and prints
                                          {"ok": bool, "reason": str}

Every request is printed as one JSON line: id, timestamp, verification, status answered, event.
"""
import base64
import hashlib
import hmac
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOLERANCE_SECONDS = 5 * 60


def verify(secret, headers, body, now):
    """The specification's steps: the three headers, the timestamp within 5 minutes, then any
    `v1,` signature equal (in constant time) to the HMAC-SHA256 of id.timestamp.body."""
    msg_id = headers.get('webhook-id')
    timestamp = headers.get('webhook-timestamp')
    signatures = headers.get('webhook-signature')
    if not msg_id or not timestamp or not signatures:
        return False, 'missing headers'
    try:
        ts = int(timestamp)
    except ValueError:
        return False, 'bad timestamp'
    if abs(now - ts) > TOLERANCE_SECONDS:
        return False, 'timestamp too old or too new'
    if not secret.startswith('whsec_'):
        return False, 'bad secret'
    key = base64.b64decode(secret[len('whsec_'):])
    signed = f'{msg_id}.{timestamp}.'.encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    for versioned in signatures.split(' '):
        version, _, signature = versioned.partition(',')
        if version == 'v1' and hmac.compare_digest(signature, expected):
            return True, 'ok'
    return False, 'no matching signature'


def serve(secret, fail_first):
    attempts = {}
    processed = set()
    # The server answers each request on a thread of its own: the bookkeeping and the printed line
    # are one step under this lock, so two deliveries at once never interleave their JSON lines
    # (print writes the text and the newline apart) nor both process one message.
    lock = threading.Lock()

    def record(ok, reason, msg_id, headers, body):
        status = 400
        event = None
        if ok:
            attempts[msg_id] = attempts.get(msg_id, 0) + 1
            if attempts[msg_id] <= fail_first:
                status = 500
            else:
                status = 200
                if msg_id not in processed:
                    processed.add(msg_id)
                    event = json.loads(body)
        sys.stdout.write(json.dumps({
            'id': msg_id,
            'timestamp': headers.get('webhook-timestamp'),
            'signature': headers.get('webhook-signature'),
            'verified': ok,
            'reason': reason,
            'status': status,
            'processed': event is not None,
            'event': event,
            'body': body.decode('utf-8', 'replace'),
        }) + '\n')
        sys.stdout.flush()
        return status, event

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            length = int(self.headers.get('content-length') or 0)
            body = self.rfile.read(length)
            headers = {k.lower(): v for k, v in self.headers.items()}
            ok, reason = verify(secret, headers, body, int(time.time()))
            msg_id = headers.get('webhook-id')
            with lock:
                status, event = record(ok, reason, msg_id, headers, body)
            answer = json.dumps({'ok': status == 200, 'reason': reason}).encode()
            self.send_response(status)
            self.send_header('content-type', 'application/json')
            self.send_header('content-length', str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

    server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
    print(json.dumps({'port': server.server_address[1]}), flush=True)
    server.serve_forever()


if __name__ == '__main__':
    mode, secret = sys.argv[1], sys.argv[2]
    if mode == 'serve':
        serve(secret, int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    else:
        request = json.load(sys.stdin)
        ok, reason = verify(secret, request['headers'], request['body'].encode(), int(request['now']))
        print(json.dumps({'ok': ok, 'reason': reason}))
