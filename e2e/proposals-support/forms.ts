/**
 * The proposal forms of the proposal journeys and the manual's screenshots, made to
 * exercise the editor as a real call's would: a one-entry form with a required text
 * field, a select and a textarea with a word limit, and a multi-entry form. Their schemas
 * have no title: the editor names each form above it already.
 */
import type { FormDefinition } from '../calls-support/api';

/** The word limit of the Abstract: small enough for a journey to type past it. */
export const ABSTRACT_MAX_WORDS = 100;

export const OBSERVING_PROPOSAL: FormDefinition = {
  type: 0,
  jsonSchema: {
    type: 'object',
    required: ['title', 'abstract', 'instrument', 'nights'],
    properties: {
      title: { type: 'string', title: 'Project title', maxLength: 200 },
      abstract: {
        type: 'string',
        title: 'Abstract',
        description: 'What you will observe and why, in words the whole committee can follow.',
      },
      instrument: {
        type: 'string',
        title: 'Instrument',
        enum: ['Spectrograph', 'Wide-field imager', 'Infrared camera'],
      },
      nights: { type: 'integer', title: 'Nights requested', minimum: 1, maximum: 14 },
    },
  },
  uiSchema: {
    'ui:order': ['title', 'abstract', 'instrument', 'nights'],
    abstract: { 'ui:widget': 'textarea', 'ui:options': { rows: 5, maxWords: ABSTRACT_MAX_WORDS } },
  },
  options: null,
};

/** One entry per person (type 1, Proposal Multi Form). */
export const TEAM_MEMBERS: FormDefinition = {
  type: 1,
  jsonSchema: {
    type: 'object',
    required: ['full_name', 'email', 'project_role'],
    properties: {
      full_name: { type: 'string', title: 'Full name', maxLength: 100 },
      email: { type: 'string', format: 'email', title: 'Email', maxLength: 254 },
      institution: { type: 'string', title: 'Institution', maxLength: 100 },
      project_role: {
        type: 'string',
        title: 'Role in the project',
        enum: ['Principal investigator', 'Co-investigator', 'Student'],
      },
    },
  },
  uiSchema: { 'ui:order': ['full_name', 'email', 'institution', 'project_role'] },
  options: null,
};
