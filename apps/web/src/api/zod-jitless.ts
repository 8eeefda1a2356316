import { z } from 'zod';

// zod 4 probes for `eval` (`new Function("")`) when it builds its first object schema,
// and compiles a fast parser per schema when the probe succeeds. The app's Content
// Security Policy forbids eval, so the browser reports the probe as a `script-src`
// violation even though zod catches the error. Interpreted parsing is fast enough for
// the app's bodies. It must be set before any schema is built: contract-module.ts
// imports this module ahead of the contract for that reason.
z.config({ jitless: true });
