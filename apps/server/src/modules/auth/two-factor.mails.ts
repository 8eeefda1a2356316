import { linkMail, type Mail } from '../../platform/io/mailer.js';

/**
 * The notice after two-step verification was turned on or off (ASVS V2.5.5: the account's
 * authentication factors changed), to the account's address, so whoever did not make the
 * change learns of it. No key in it: the reset page asks for the address again.
 */
export function twoFactorChangedMail(
  to: string,
  name: string,
  resetLink: string,
  change: 'on' | 'off',
  /** For `off`: how many security keys went with it. */
  securityKeysRemoved = 0,
): Mail {
  return linkMail({
    to,
    subject:
      change === 'on'
        ? 'Two-step verification is now on for your Merit account'
        : 'Two-step verification was turned off for your Merit account',
    greeting: `Hello ${name},`,
    lines: [
      change === 'on'
        ? 'Two-step verification was just turned on for your Merit account: logging in with your password now also asks for a code from an authenticator app.'
        : 'Two-step verification was just turned off for your Merit account: your password alone now logs in.',
      ...(change === 'off' && securityKeysRemoved > 0
        ? [
            securityKeysRemoved === 1
              ? 'Your security key was removed with it: it no longer logs in.'
              : `Your ${securityKeysRemoved} security keys were removed with it: they no longer log in.`,
          ]
        : []),
      'If this was you, there is nothing to do.',
    ],
    action: 'If it was not you, choose a new password now',
    link: resetLink,
    footer:
      'Then turn two-step verification on again from My Account, or tell the people who run Merit for your organisation.',
  });
}

/**
 * The notice after a login offered an authenticator code that had already been used
 * (ASVS V2.8.5): the password was right, so whoever sent it knows the password and may
 * have seen a code. Harmless when the holder sent one code twice; the mail says so.
 */
export function twoFactorReplayedMail(to: string, name: string, resetLink: string): Mail {
  return linkMail({
    to,
    subject: 'A used two-step code was tried on your Merit account',
    greeting: `Hello ${name},`,
    lines: [
      'Someone logged in to your Merit account with the right password, then gave a code from your authenticator app that had already been used. Merit refused it.',
      'If you just sent the same code twice, there is nothing to do.',
    ],
    action: 'If it was not you, your password is known to someone else: choose a new one now',
    link: resetLink,
    footer: 'Codes are used once, so a code someone saw over your shoulder cannot log them in.',
  });
}
