import { z } from 'zod';

// Imported for its effect, first thing where a page boots (apps/web/src/main.tsx), before any
// schema exists. Zod compiles object parsers with `new Function`, and to learn whether it may,
// every z.object probes `new Function('')` when it is created. The web app's Content-Security-
// Policy (script-src 'self', no 'unsafe-eval') refuses that, and browsers report the refusal as
// a `script-src eval` violation on every page even though zod catches it. Jitless, zod neither
// probes nor compiles; it parses with its interpreter. The server keeps the compiled parsers.
z.config({ jitless: true });
