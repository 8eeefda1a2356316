import { linkMail, type Mail } from '../../platform/io/mailer.js';

/** The account mails, sent after the change that asked for them has committed. */
export const accountJobs = {
  /** `{userId, email, change}`: a link that confirms `email` for the account. */
  verificationMail: 'account.verification-mail',
  /** `{email}`: a new link for an unverified account with that address, if there is one. */
  resendVerification: 'account.resend-verification',
  /** `{email}`: a reset link for the account with that address, if there is one. */
  passwordReset: 'account.password-reset',
} as const;

export function verificationMail(to: string, name: string, link: string, isChange: boolean): Mail {
  return linkMail({
    to,
    subject: isChange
      ? 'Confirm your new email address for Merit'
      : 'Confirm your email address for Merit',
    greeting: `Hello ${name},`,
    lines: isChange
      ? [
          'You asked to change the email address of your Merit account to this one.',
          'The change takes effect once you follow the link below. It works once, for 3 days.',
        ]
      : [
          'Thank you for registering with Merit.',
          'Please confirm your email address by following the link below. It works once, for 3 days.',
        ],
    action: 'Confirm your email address',
    link,
    footer: 'If you did not ask for this, you can ignore this message.',
  });
}

export function passwordResetMail(to: string, name: string, link: string): Mail {
  return linkMail({
    to,
    subject: 'Reset your Merit password',
    greeting: `Hello ${name},`,
    lines: [
      'Someone, hopefully you, asked to reset the password of your Merit account.',
      'Follow the link below to choose a new password. It works once, for 24 hours.',
    ],
    action: 'Choose a new password',
    link,
    footer:
      'If you did not ask for this, you can ignore this message: your password stays as it is.',
  });
}

export function federatedResetMail(to: string, name: string, link: string): Mail {
  return linkMail({
    to,
    subject: 'Your Merit account has no password',
    greeting: `Hello ${name},`,
    lines: [
      'Someone asked to reset the password of your Merit account.',
      'Your account logs in through your institution (federated login), so it has no Merit password to reset.',
    ],
    action: 'Go to the login page',
    link,
    footer: 'If you did not ask for this, you can ignore this message.',
  });
}

/**
 * The notice after a password change or a reset (OWASP ASVS V2.2.3, V2.5.5): to the
 * account's address, so whoever did not make the change learns of it. No link with a
 * key: the reset page asks for the address again.
 */
export function passwordChangedMail(
  to: string,
  name: string,
  resetLink: string,
  how: 'change' | 'reset',
): Mail {
  return linkMail({
    to,
    subject: 'Your Merit password was changed',
    greeting: `Hello ${name},`,
    lines: [
      how === 'reset'
        ? 'The password of your Merit account was just reset with a link sent to this address.'
        : 'The password of your Merit account was just changed.',
      'If this was you, there is nothing to do.',
    ],
    action: 'If it was not you, choose a new password now',
    link: resetLink,
    footer: 'If you cannot reset it, tell the people who run Merit for your organisation.',
  });
}

/**
 * The notice after an email change took effect, to the old address and to the new one:
 * whoever owned the old one learns where the account's mail goes now. Reset links go to
 * the new address, so the old one is pointed to the people who run Merit instead.
 */
export function emailChangedMail(
  to: string,
  name: string,
  oldEmail: string,
  newEmail: string,
  accountLink: string,
): Mail {
  return linkMail({
    to,
    subject: 'Your Merit email address was changed',
    greeting: `Hello ${name},`,
    lines: [
      `The email address of your Merit account was changed from ${oldEmail} to ${newEmail}.`,
      'Mail from Merit now goes to the new address. If this was you, there is nothing to do.',
    ],
    action: 'Your account',
    link: accountLink,
    footer:
      'If it was not you, tell the people who run Merit for your organisation at once: someone else may have your password.',
  });
}

/**
 * The notice after an account was deleted (ASVS V8.3.2), to the address it had: whoever
 * owned it learns that it happened even if someone else did it from an open session.
 */
export function accountDeletedMail(to: string, name: string, homeLink: string): Mail {
  return linkMail({
    to,
    subject: 'Your Merit account was deleted',
    greeting: `Hello ${name},`,
    lines: [
      'Your Merit account was deleted just now, and you have been logged out everywhere.',
      'Your details, logins and the drafts only you worked on are gone. Proposals you submitted or shared with collaborators, and the reviews you wrote, stay with their committees under the name "Deleted user".',
      'This address and your username are free again: you can register with them as a new account.',
    ],
    action: 'Go to Merit',
    link: homeLink,
    footer:
      'If you did not delete your account, tell the people who run Merit for your organisation at once: someone else may have had your password.',
  });
}
