import { linkMail, type Mail } from '../../plugins/mail.js';

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
