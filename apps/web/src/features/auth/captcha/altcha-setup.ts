// The build of the widget without its workers inlined: the default build starts its
// proof-of-work workers from blob: URLs, which the server's CSP (`script-src 'self'`,
// no `worker-src`) refuses. Vite emits the worker below as a file of this origin.
import 'altcha/external';
import 'altcha/altcha.css';
import './altcha-colours.css';
import ShaWorker from 'altcha/workers/sha?worker';

// The server's challenges use SHA-256 (apps/server/src/platform/security/captcha-store.ts); the other
// algorithms are not registered, so a challenge asking for one fails visibly.
globalThis.$altcha.algorithms.set('SHA-256', () => new ShaWorker());
