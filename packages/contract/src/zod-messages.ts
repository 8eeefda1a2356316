import { z } from 'zod';

/**
 * Messages for the schema checks every form shares, worded for the people filling the
 * forms rather than for developers ("Invalid input: expected string, received undefined").
 */
z.config({
  customError: (issue) => {
    if (issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null)) {
      return 'This field is required.';
    }
    if (
      issue.code === 'invalid_type' &&
      (issue.expected === 'object' || issue.expected === 'record')
    ) {
      return 'This must be a JSON object.';
    }
    if (issue.code === 'too_small' && issue.origin === 'string' && issue.minimum === 1) {
      return 'This field may not be blank.';
    }
    if (issue.code === 'too_big' && issue.origin === 'string') {
      return `Ensure this field has no more than ${String(issue.maximum)} characters.`;
    }
    return undefined;
  },
});
