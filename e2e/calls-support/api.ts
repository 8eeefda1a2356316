/**
 * Sets up what the call journeys need through the server's public API, as another
 * person would have done before the journey starts: users (registered with a solved
 * captcha and a verified address), committees, roles, forms and calls.
 */
import { formatDateTime } from '@merit/domain';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Credentials } from '../fixtures';
import { e2eEnv } from '../env';
import { linkToServer, waitForMail } from '../support/mail';
import { VERIFICATION_SUBJECT } from '../support/registration';

const API_PREFIX = '/api/v1';

/** A failed call with what the server answered, so a broken setup explains itself. */
export class ApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${method} ${API_PREFIX}${path} answered ${status}: ${body.slice(0, 800)}`);
  }
}

/** One call to the API, as `token` (a logged-in user) or anonymously. */
export async function api<T = unknown>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  { token, body }: { token?: string; body?: unknown } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Token ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${e2eEnv('baseUrl')}${API_PREFIX}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(method, path, response.status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Logs in and returns the API token. */
export async function logInApi(credentials: Credentials): Promise<string> {
  const { key } = await api<{ key: string }>('POST', '/auth/login/', { body: credentials });
  return key;
}

/** Distinguishes the names this run makes from any other run's or test's. */
function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

export interface TestUser extends Credentials {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  /** First and last name, as the app shows a user. */
  fullName: string;
}

/** Solves the registration captcha as the ALTCHA widget does in a browser. */
async function solvedCaptcha(): Promise<string> {
  const challenge = await api<Parameters<typeof solveChallenge>[0]['challenge']>(
    'GET',
    '/auth/captcha/',
  );
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('The registration captcha could not be solved.');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/**
 * Registers a user, follows the link of the verification mail, and returns the
 * verified user, who holds no role yet. The username is the first name with a unique
 * suffix, unless `username` is given (the manual's screenshots show one as a person
 * would choose it, on a server of their own).
 */
export async function registerVerifiedUser(
  firstName: string,
  lastName: string,
  { username = `${firstName.toLowerCase()}-${uniqueSuffix()}`, institution = 'E2E Institute' } = {},
): Promise<TestUser> {
  const email = `${username}@example.test`;
  // Unlike the username, which the server's similarity rule would refuse.
  const password = `Quartz-Harbour-${Math.random().toString(36).slice(2, 8)}-7!`;
  await api('POST', '/auth/registration/', {
    body: {
      username,
      email,
      first_name: firstName,
      last_name: lastName,
      institution,
      gender: 'FEMALE',
      phone_number: '+61 2 9999 0000',
      password1: password,
      password2: password,
      is_student: false,
      captcha: await solvedCaptcha(),
    },
  });
  await api('POST', '/auth/registration/verify-email/', {
    body: { key: await verificationKeyMailedTo(email) },
  });
  const credentials = { username, password };
  const { id } = await api<{ id: number }>('GET', '/user_details/', {
    token: await logInApi(credentials),
  });
  return {
    ...credentials,
    id,
    email,
    firstName,
    lastName,
    fullName: `${firstName} ${lastName}`,
  };
}

const CONFIRM_LINK = /\/auth\/registration\/account-confirm-email\/([A-Za-z0-9_-]+)\/$/;

/** The key of the verification link in the mail the server wrote to its outbox. */
async function verificationKeyMailedTo(email: string): Promise<string> {
  const mail = await waitForMail({ to: email, subject: VERIFICATION_SUBJECT });
  const link = linkToServer(mail, e2eEnv('baseUrl'));
  const key = CONFIRM_LINK.exec(link)?.[1];
  if (!key) throw new Error(`The verification mail to ${email} holds no confirmation key: ${link}`);
  return key;
}

// --- Admin set-up ----------------------------------------------------------------------

export async function createCommittee(adminToken: string, name: string): Promise<number> {
  const { id } = await api<{ id: number }>('POST', '/committees/', {
    token: adminToken,
    body: { name },
  });
  return id;
}

/** Makes `userId` chair (or member) of the committee from a year ago to a year ahead. */
export async function giveRole(
  adminToken: string,
  userId: number,
  committeeId: number,
  role: 'CHAIR' | 'MEMBER',
): Promise<void> {
  const year = 365 * 24 * 60 * 60 * 1000;
  await api('POST', `/roles/${userId}/`, {
    token: adminToken,
    body: {
      userId,
      committeeId,
      role,
      commencement: new Date(Date.now() - year).toISOString(),
      termination: new Date(Date.now() + year).toISOString(),
    },
  });
}

/** A form as the form builder saves it: its type, its two schemas and its options. */
export interface FormDefinition {
  type: number;
  jsonSchema: Record<string, unknown>;
  uiSchema: Record<string, unknown>;
  options: unknown;
}

export interface CreatedForm {
  id: number;
  displayName: string;
  version: string;
  type: number;
}

/** FORM_TYPE_LABELS of the app: how the wizard names a form's type. */
export const FORM_TYPE_LABELS: Record<number, string> = {
  0: 'Proposal Form',
  1: 'Proposal Multi Form',
  2: 'Review Form',
  3: 'Review Score Form',
  4: 'Proposal Resource Form',
  5: 'Proposal Resource Multi Form',
};

/** Makes a form name and version 1 of the form `definition` describes. */
export async function createFormFrom(
  adminToken: string,
  displayName: string,
  definition: FormDefinition,
): Promise<CreatedForm> {
  const formName = await api<{ id: number }>('POST', '/form_names/', {
    token: adminToken,
    body: {
      name: `${displayName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
      display_name: displayName,
      type: definition.type,
    },
  });
  const version = '1';
  const form = await api<{ id: number }>('POST', '/forms/', {
    token: adminToken,
    body: {
      isNew: true,
      name: formName.id,
      version,
      jsonSchema: definition.jsonSchema,
      uiSchema: definition.uiSchema,
      options: definition.options ?? null,
    },
  });
  return { id: form.id, displayName, version, type: definition.type };
}

/**
 * Makes a form name and version 1 of a form of `type` (0 proposal, 2 review), from the
 * builder's ready-made example of that type.
 */
export async function createForm(
  adminToken: string,
  type: 0 | 2,
  displayName: string,
): Promise<CreatedForm> {
  const examples = await api<FormDefinition[]>('GET', '/form_examples/', { token: adminToken });
  const example = examples.find((candidate) => candidate.type === type);
  if (!example) throw new Error(`The server offers no example form of type ${type}.`);
  return createFormFrom(adminToken, displayName, example);
}

/** How the wizard's form choosers label a form. */
export function formChoiceLabel(form: CreatedForm): string {
  return `${form.displayName} (version ${form.version}) · ${FORM_TYPE_LABELS[form.type]}`;
}

export interface CallDates {
  openDateTime: Date;
  closeDateTime: Date;
  reviewOpenDateTime: Date;
  reviewCloseDateTime: Date;
}

/** Creates a call as `token` (a chair of the committee, or the admin). */
export async function createCall(
  token: string,
  call: {
    committeeId: number;
    name: string;
    dates: CallDates;
    proposalTypes: { typeName: string; proposalForms: number[]; reviewForms: number[] }[];
    /**
     * Conflicts of interest: recorded and enforced, but members are not asked to declare
     * before reading unless a journey says so (the conflicts journey does; the others
     * are about something else).
     */
    conflicts?: { enabled: boolean; declarationRequired: boolean };
  },
): Promise<number> {
  const { id } = await api<{ id: number }>('POST', '/new_call/', {
    token,
    body: {
      new: true,
      id: null,
      committee: call.committeeId,
      name: call.name,
      openDateTime: call.dates.openDateTime.toISOString(),
      closeDateTime: call.dates.closeDateTime.toISOString(),
      reviewOpenDateTime: call.dates.reviewOpenDateTime.toISOString(),
      reviewCloseDateTime: call.dates.reviewCloseDateTime.toISOString(),
      isReviewOpen: false,
      conflicts: call.conflicts ?? { enabled: true, declarationRequired: false },
      description: '',
      proposalTypes: call.proposalTypes.map((type) => ({ ...type, typeId: null })),
    },
  });
  return id;
}

/**
 * Once the proposals are in, an administrator's edit moves the call's dates so that, as
 * far as the app can tell, submission closed two minutes ago and review opened a minute
 * ago and lasts 30 days (the app's clock cannot move in a journey).
 */
export async function openReviewNow(
  adminToken: string,
  call: {
    id: number;
    committeeId: number;
    name: string;
    openDateTime: Date;
    proposalTypes: {
      typeId: number;
      typeName: string;
      proposalForms: number[];
      reviewForms: number[];
    }[];
  },
): Promise<void> {
  const minute = 60 * 1000;
  await api('POST', '/new_call/', {
    token: adminToken,
    body: {
      new: false,
      id: call.id,
      committee: call.committeeId,
      name: call.name,
      openDateTime: call.openDateTime.toISOString(),
      closeDateTime: new Date(Date.now() - 2 * minute).toISOString(),
      reviewOpenDateTime: new Date(Date.now() - minute).toISOString(),
      reviewCloseDateTime: daysFromNow(30, 17).toISOString(),
      isReviewOpen: false,
      description: '',
      proposalTypes: call.proposalTypes,
    },
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** `days` from now (negative: ago), at `hour`:`minute` local time, whole minutes. */
export function daysFromNow(days: number, hour: number, minute = 0): Date {
  const date = new Date(Date.now() + days * DAY_MS);
  date.setHours(hour, minute, 0, 0);
  return date;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** The value a `datetime-local` input takes for `date`: YYYY-MM-DDTHH:mm, local time. */
export function localInputValue(date: Date): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/**
 * How the web app shows an extension's dates, as every date: Merit's one format in the
 * browser's zone, which is this machine's ("1 Aug 2026, 17:00 UTC").
 */
export function extensionDateText(date: Date): string {
  return formatDateTime(date);
}
