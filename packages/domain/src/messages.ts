/**
 * Messages the spec quotes word for word (spec section 8). Both the server and the
 * web app read them from here so a reworded message cannot drift between the two.
 */
export const messages = {
  notFoundPage: 'The page you are looking for can not be found.',
  noPermission: 'You do not have permission to access this page.',
  somethingWentWrong: 'Something went wrong',
  verificationFailed: 'There was an error verifying your account.',
  invalidCredentials: 'Unable to log in with the provided credentials.',
  emailNotVerified: 'E-mail is not verified. Check your inbox for the verification link.',
  notAuthenticated: 'Authentication credentials were not provided or have expired.',
  notFoundApi: 'Not found.',
  validationFailed: 'The request is not valid. Check the highlighted fields.',
  internalError: 'Something went wrong on the server. The error has been logged.',
  serviceUnavailable: 'The database is not reachable.',
} as const;
