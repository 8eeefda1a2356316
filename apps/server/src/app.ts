import { randomUUID } from 'node:crypto';
import fastifyCompress from '@fastify/compress';
import fastifyHelmet from '@fastify/helmet';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { isDeletedAccountEmail, REMINDER_SWEEP_MS } from '@merit/domain';
import Fastify, { type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { describeClamd } from './config/clamd.js';
import type { Config } from './config/config.js';
import { configuredDatabase, openDatabase, type Database } from './db/client.js';
import type { App, RegisteredRoute } from './platform/http/app-types.js';
import {
  clientErrorHandler,
  frameworkErrors,
  registerErrorHandling,
} from './platform/http/errors.js';
import { registerInputGuard } from './platform/http/input-guard.js';
import { loggerOptions } from './platform/http/log-options.js';
import { createResponseSerializer } from './platform/http/serializer.js';
import { registerWeb } from './platform/http/web.js';
import { createJobRunner, every, type ScheduledRun } from './platform/data/jobs.js';
import { registerUnitOfWork } from './platform/data/work.js';
import { storageFor } from './platform/io/file-storage.js';
import { SEND_MAIL_JOB } from './platform/io/mail-job.js';
import { createMailer, type Mail } from './platform/io/mailer.js';
import { clamdScanner } from './platform/io/virus-scan.js';
import { createCaptcha } from './platform/security/captcha-store.js';
import {
  registerSecurityEvents,
  SECURITY_EVENTS_FLUSH_MS,
} from './platform/security/security-log.js';
import { checkServerSecret, serverKeysFor } from './platform/security/server-key.js';
import { registerAlerts } from './ops/alerts.js';
import {
  createRetention,
  PLATFORM_RETENTION,
  RETENTION_EVERY_MS,
  type RetentionClass,
} from './ops/retention.js';
import { accountDeletionRoutes } from './modules/accounts/account-deletion.routes.js';
import { activityRoutes } from './modules/activity/activity.routes.js';
import { ACCOUNTS_RETENTION } from './modules/accounts/accounts.retention.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
import { registerAuth } from './modules/auth/auth-access.js';
import { AUTH_RETENTION } from './modules/auth/auth.retention.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { runProposal, type ProposeJob } from './modules/assignment/assignment.jobs.js';
import { PROPOSE_ASSIGNMENT_JOB } from './modules/assignment/assignment.queries.js';
import { ASSIGNMENT_RETENTION } from './modules/assignment/assignment.retention.js';
import { assignmentRoutes } from './modules/assignment/assignment.routes.js';
import { securityKeysRoutes } from './modules/auth/security-keys.routes.js';
import { twoFactorRoutes } from './modules/auth/two-factor.routes.js';
import { moveTwoFactorKeysToServerKey } from './modules/auth/two-factor.service.js';
import { callsRoutes } from './modules/calls/calls.routes.js';
import { committeesRoutes } from './modules/committees/committees.routes.js';
import { detectForScope } from './modules/conflicts/conflicts.jobs.js';
import {
  DETECT_CONFLICTS_JOB,
  type DetectionScope,
} from './modules/conflicts/conflicts.queries.js';
import { conflictsRoutes } from './modules/conflicts/conflicts.routes.js';
import { decisionsRoutes } from './modules/decisions/decisions.routes.js';
import { FILES_RETENTION } from './modules/files/files.retention.js';
import { filesRoutes } from './modules/files/files.routes.js';
import { formNamesRoutes } from './modules/forms/form-names.routes.js';
import { formsRoutes } from './modules/forms/forms.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { lettersRoutes } from './modules/letters/letters.routes.js';
import { meRoutes } from './modules/me/me.routes.js';
import { OIDC_RETENTION } from './modules/oidc/oidc.retention.js';
import { oidcRoutes } from './modules/oidc/oidc.routes.js';
import { progressRoutes } from './modules/progress/progress.routes.js';
import { PROPOSALS_RETENTION } from './modules/proposals/proposals.retention.js';
import { proposalsRoutes } from './modules/proposals/proposals.routes.js';
import { remindersRoutes } from './modules/reminders/reminders.routes.js';
import { REMINDERS_SWEEP_JOB, sweepReminders } from './modules/reminders/reminders.sweep.js';
import { reviewsRoutes } from './modules/reviews/reviews.routes.js';
import { rolesRoutes } from './modules/roles/roles.routes.js';
import { setupRoutes } from './modules/setup/setup.routes.js';
import { userAdminRoutes } from './modules/user-admin/user-admin.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';

export type { App } from './platform/http/app-types.js';
export { loadConfig, type Config } from './config/config.js';

export interface BuildOptions {
  /** An open database; when absent one is opened from the config and closed with the app. */
  database?: Database;
  /** The clock for every rule; tests pin it. */
  now?: () => Date;
  /** How often the job runner looks for due jobs (mail); it is also woken after each commit. */
  jobPollMs?: number;
  /**
   * How often each process adds its alert counts to the database (ops/alerts.ts); 0 for
   * only on close and when asked (tests).
   */
  alertFlushMs?: number;
  /**
   * How often each process deletes data past its retention period (ops/retention.ts),
   * besides once at start; 0 for only at start and when asked (tests).
   */
  retentionEveryMs?: number;
  /** Check every response against its zod schema too (tests): see platform/http/serializer.ts. */
  validateResponses?: boolean;
  logger?: FastifyServerOptions['logger'];
}

/**
 * Every kind of data Merit keeps, each module's own and the platform's: what the retention
 * job deletes past its period (ops/retention.ts), and what the docs classify.
 */
export const RETENTION_CLASSES: readonly RetentionClass[] = [
  ...AUTH_RETENTION,
  ...ACCOUNTS_RETENTION,
  ...OIDC_RETENTION,
  ...FILES_RETENTION,
  ...PROPOSALS_RETENTION,
  ...ASSIGNMENT_RETENTION,
  ...PLATFORM_RETENTION,
];

/** The content security policy the built web app satisfies: nothing inline but styles, nothing from elsewhere. */
const contentSecurityPolicy = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    // MUI (emotion) injects <style> elements at run time.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    // The captcha's proof-of-work worker is a file of this origin; nothing starts workers
    // from blob: URLs (the chair's XLSX downloads zip with CompressionStream, no worker).
    workerSrc: ["'self'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
  },
};

/** Builds the whole application without listening, so tests can `inject` requests. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const database = options.database ?? (await openDatabase(configuredDatabase(config)));
  const ownsDatabase = !options.database;

  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    // Fastify 5.12 reads a bare hop count as "trust nobody"; this trusts the nearest hops.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // Keep-alive connections would otherwise hold a shutdown open until they time out.
    forceCloseConnections: 'idle',
    // Routes that take more (a call description with images) raise it for themselves.
    bodyLimit: 1024 * 1024,
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  try {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(
      createResponseSerializer({ validate: options.validateResponses ?? false }),
    );
    app.decorate('config', config);
    app.decorate('keys', await serverKeysFor(config));
    app.decorate('database', database);
    database.useLogger(app.log);
    app.decorate('db', database.db);
    app.decorate('now', options.now ?? (() => new Date()));
    const mailer = createMailer(config, app.log);
    app.decorate('mailer', mailer);
    app.addHook('onClose', async () => mailer.close());
    app.decorate('captcha', createCaptcha(database.db));
    const jobs = createJobRunner({
      db: database.db,
      now: () => app.now(),
      log: app.log,
      pollMs: options.jobPollMs ?? 5_000,
    });
    app.decorate('jobs', jobs);
    app.decorate('files', storageFor(config));
    app.decorate('virusScanner', config.clamd ? clamdScanner(config.clamd) : null);
    // A notice to a deleted account's stand-in address (a decision on a proposal it
    // submitted) has nobody to reach: dropped, rather than retried against a domain
    // that never takes mail.
    jobs.handle<Mail>(SEND_MAIL_JOB, async (mail) => {
      if (!isDeletedAccountEmail(mail.to)) await mailer.send(mail);
    });
    // Conflicts of interest found again after a change that could alter them (a proposal
    // submitted, its team, the committee's roles, a profile): after the change's commit.
    jobs.handle<DetectionScope>(DETECT_CONFLICTS_JOB, async (scope, { db, now }) => {
      await detectForScope(db, scope, now);
    });
    // A proposed assignment of a call's reviewers (issue 27), worked out in a worker thread.
    jobs.handle<ProposeJob>(PROPOSE_ASSIGNMENT_JOB, (job, context) => runProposal(job, context));
    // Reminders (issue 28): each due time of the sweep runs once across processes; it looks
    // at the reminders due since the due time before it, so one missed while every process
    // was down is still sent when one comes back. Its mails go out in the same pass.
    jobs.schedule(
      REMINDERS_SWEEP_JOB,
      every(REMINDER_SWEEP_MS),
      async (run: ScheduledRun, { db, now, log }) => {
        const swept = await sweepReminders(db, now, log, {
          publicUrl: config.publicUrl,
          from: new Date(Date.parse(run.dueAt) - REMINDER_SWEEP_MS),
        });
        if (swept.queued > 0) jobs.nudge();
      },
    );
    // Before the database closes (onClose), let the pass under way finish.
    app.addHook('preClose', () => jobs.stop());
    registerUnitOfWork(app);
    registerAlerts(app, options.alertFlushMs ?? 5_000);
    // After the alerts: closing, their last flush may raise an event this still writes.
    registerSecurityEvents(app, SECURITY_EVENTS_FLUSH_MS);
    const retention = createRetention({
      db: database.db,
      now: () => app.now(),
      log: app.log,
      settings: config.retention,
      session: config.session,
      everyMs: options.retentionEveryMs ?? RETENTION_EVERY_MS,
      classes: RETENTION_CLASSES,
    });
    app.decorate('retention', retention);
    app.addHook('preClose', () => retention.stop());
    app.decorateRequest('user', null);
    // Every route with its body schema, for the tests that go through all of them: the
    // authorization table (each one has a decided access rule) and the bad-input test.
    const routes: RegisteredRoute[] = [];
    app.decorate('routes', routes);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD')
          routes.push({
            method,
            url: route.url,
            body: route.schema?.body as RegisteredRoute['body'],
            query: route.schema?.querystring as RegisteredRoute['query'],
            params: route.schema?.params as RegisteredRoute['params'],
          });
      }
    });
    app.addHook('onSend', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
    if (ownsDatabase) app.addHook('onClose', () => database.close());

    await database.migrate();
    // Before the keys touch anything: a wrong secret would move the two-step keys under it.
    if ((await checkServerSecret(database.db, app.keys, config)) === 'stored') {
      app.log.info('stored the check value of the server secret this database is used with');
    }
    const moved = await moveTwoFactorKeysToServerKey(database.db, app.keys);
    if (moved) {
      app.log.info(
        moved,
        'moved the two-step verification keys from the key in the database to the server secret',
      );
    }
    if (moved?.unreadable) {
      app.log.warn(
        { unreadable: moved.unreadable },
        'two-step verification keys that the key in the database does not decrypt were left as they were: their users can log in only with a recovery code, and then turn two-step verification off and on again',
      );
    }

    registerErrorHandling(app);
    await app.register(fastifyHelmet, {
      contentSecurityPolicy,
      // The app loads nothing cross-origin; these keep other origins out of it.
      crossOriginEmbedderPolicy: false,
      // What frame-ancestors 'none' says, for browsers that only know the older header.
      xFrameOptions: { action: 'deny' },
      // HSTS pins the site's host name (and its subdomains) to https for a year, so it is
      // sent only when PUBLIC_URL says people reach Merit over https, even though TLS
      // ends at a proxy in front of it. A site on http (a laptop, a trial install) must
      // not pin a name that may one day serve something else over http.
      strictTransportSecurity: config.publicUrl.startsWith('https:')
        ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true }
        : false,
    });
    await app.register(fastifyCompress, { threshold: 1024 });
    await app.register(fastifySwagger, {
      openapi: {
        info: {
          title: 'Merit API',
          description:
            'Calls for proposals with committee review. Send `Authorization: Token <key>`.',
          version: '1',
        },
        components: {
          securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } },
        },
        security: [{ token: [] }],
      },
      transform: jsonSchemaTransform,
      transformObject: jsonSchemaTransformObject,
    });
    await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

    await app.register(
      async (api) => {
        registerAuth(api);
        registerInputGuard(api);
        // Answers hold tokens and personal data: no browser or proxy may keep a copy.
        api.addHook('onSend', async (_request, reply) => {
          if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
        });
        await api.register(healthRoutes);
        await api.register(authRoutes);
        await api.register(twoFactorRoutes);
        await api.register(securityKeysRoutes);
        await api.register(accountsRoutes);
        await api.register(accountDeletionRoutes);
        await api.register(oidcRoutes);
        await api.register(callsRoutes);
        await api.register(usersRoutes);
        await api.register(meRoutes);
        await api.register(userAdminRoutes);
        await api.register(rolesRoutes);
        await api.register(committeesRoutes);
        await api.register(formNamesRoutes);
        await api.register(formsRoutes);
        await api.register(proposalsRoutes);
        await api.register(filesRoutes);
        await api.register(reviewsRoutes);
        await api.register(conflictsRoutes);
        await api.register(assignmentRoutes);
        await api.register(remindersRoutes);
        await api.register(progressRoutes);
        await api.register(lettersRoutes);
        await api.register(decisionsRoutes);
        await api.register(activityRoutes);
        await api.register(setupRoutes);
      },
      { prefix: '/api/v1' },
    );
    await registerWeb(app);
    await app.ready();
    // Uploads wait for clamd: say at start when it is not there, not only at the first upload.
    const scanner = app.virusScanner;
    if (scanner) {
      void scanner.ping().then((answers) => {
        if (!answers)
          app.log.warn(
            `CLAMD_URL is set, but clamd does not answer at ${describeClamd(scanner.address)}: uploads are refused until it does`,
          );
      });
    }
    jobs.start();
    retention.start();
  } catch (error) {
    await app.close().catch(() => {});
    if (ownsDatabase) await database.close().catch(() => {});
    throw error;
  }
  return app;
}
