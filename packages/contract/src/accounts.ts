import { z } from 'zod';

// Shapes only: the rules and their messages (required, lengths, characters, password
// strength) live in @merit/domain so the web forms show the same words as the server.
const text = z.string().max(5000);

export const registrationRequest = z.object({
  username: text,
  email: text,
  first_name: text,
  last_name: text,
  institution: text,
  gender: text,
  phone_number: text,
  password1: text,
  password2: text,
  is_student: z.boolean().default(false),
  captcha: text,
  /**
   * Beyond the spec: the user accepted the operator's privacy notice. Required (true) only
   * when the installation sets one (GET /auth/methods/ names it), so the spec's clients work.
   */
  privacy_consent: z.boolean().optional(),
});
export type RegistrationRequest = z.input<typeof registrationRequest>;

export const verifyEmailRequest = z.object({ key: text });
export const resendEmailRequest = z.object({ email: text });
export const passwordResetRequest = z.object({ email: text });
export const passwordResetConfirmRequest = z.object({
  uid: text,
  token: text,
  newPassword1: text,
  newPassword2: text,
});
export type PasswordResetConfirmRequest = z.infer<typeof passwordResetConfirmRequest>;
export const passwordChangeRequest = z.object({
  oldPassword: text,
  newPassword1: text,
  newPassword2: text,
});
export type PasswordChangeRequest = z.infer<typeof passwordChangeRequest>;

/** PATCH /user_details/: any subset of the editable fields. */
export const userDetailsUpdate = z
  .object({
    first_name: text,
    last_name: text,
    institution: text,
    gender_choice: text,
    phone_number: text,
    is_student: z.boolean(),
    email: text,
  })
  .partial()
  .strict();
export type UserDetailsUpdate = z.infer<typeof userDetailsUpdate>;

export const userHashResponse = z.object({ hash: z.string() });

/** The ALTCHA challenge the widget solves (opaque to the web app). */
export const captchaChallenge = z
  .object({
    parameters: z.record(z.string(), z.unknown()),
    signature: z.string().optional(),
  })
  .passthrough();

/**
 * POST /auth/account/delete/ (beyond the spec; ASVS V8.3.2): the caller deletes their own
 * account, confirming with their password, or with their username when they have no
 * password (federated-only accounts). Which one is asked for is the server's rule
 * (`deletionConfirmationOf` in @merit/domain); the other field is ignored.
 */
export const accountDeletionRequest = z
  .object({ password: z.string().max(1000), username: text })
  .partial()
  .strict();
export type AccountDeletionRequest = z.infer<typeof accountDeletionRequest>;
