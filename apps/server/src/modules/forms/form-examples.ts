import type { FormExample } from '@merit/contract';

/**
 * Ready-made forms an admin can load into the form builder and adapt, one per common
 * need. Each passes the same checks as a saved form (test/admin-forms.api.test.ts).
 * Field names are snake_case because options and exports refer to them.
 */
export const FORM_EXAMPLES: readonly FormExample[] = [
  {
    key: 'project-description',
    title: 'Project description',
    type: 0,
    name: 'project_description',
    display_name: 'Project Description',
    jsonSchema: {
      type: 'object',
      title: 'Project description',
      required: ['title', 'summary', 'aims'],
      properties: {
        title: { type: 'string', title: 'Project title', maxLength: 200 },
        summary: {
          type: 'string',
          title: 'Summary',
          description: 'A plain-language summary of the project, for the committee.',
          maxLength: 3000,
        },
        aims: { type: 'string', title: 'Aims and objectives', maxLength: 5000 },
        methods: { type: 'string', title: 'Methods', maxLength: 5000 },
        start_date: { type: 'string', format: 'date', title: 'Planned start date' },
        duration_months: {
          type: 'integer',
          title: 'Duration (months)',
          minimum: 1,
          maximum: 60,
        },
        keywords: {
          type: 'array',
          title: 'Keywords',
          maxItems: 10,
          items: { type: 'string', maxLength: 50 },
        },
        // A file field: a string with format "data-url". The answer keeps the uploaded
        // file's id, and only a PDF is taken (spec section 3; domain's fileFields).
        supporting_document: {
          type: 'string',
          format: 'data-url',
          title: 'Supporting document (PDF)',
          description: 'Optional: one PDF with figures, letters of support or a data plan.',
        },
      },
    },
    uiSchema: {
      'ui:order': [
        'title',
        'summary',
        'aims',
        'methods',
        'start_date',
        'duration_months',
        'keywords',
        'supporting_document',
      ],
      summary: { 'ui:widget': 'textarea', 'ui:options': { rows: 5 } },
      aims: { 'ui:widget': 'textarea', 'ui:options': { rows: 8 } },
      methods: { 'ui:widget': 'textarea', 'ui:options': { rows: 8 } },
    },
    options: null,
  },
  {
    key: 'team-member',
    title: 'Team member (one entry per person)',
    type: 1,
    name: 'team_member',
    display_name: 'Team Members',
    jsonSchema: {
      type: 'object',
      title: 'Team member',
      required: ['full_name', 'email', 'institution', 'project_role'],
      properties: {
        full_name: { type: 'string', title: 'Full name', maxLength: 100 },
        email: { type: 'string', format: 'email', title: 'Email', maxLength: 254 },
        institution: { type: 'string', title: 'Institution', maxLength: 100 },
        project_role: {
          type: 'string',
          title: 'Role in the project',
          enum: ['Lead investigator', 'Co-investigator', 'Research staff', 'Student'],
        },
        orcid: {
          type: 'string',
          title: 'ORCID iD',
          pattern: '^\\d{4}-\\d{4}-\\d{4}-\\d{3}[\\dX]$',
        },
        time_commitment: {
          type: 'number',
          title: 'Time on the project (FTE)',
          minimum: 0,
          maximum: 1,
        },
      },
    },
    uiSchema: {
      orcid: { 'ui:placeholder': '0000-0002-1825-0097' },
      time_commitment: { 'ui:help': 'For example 0.2 for one day a week.' },
    },
    options: null,
  },
  {
    key: 'resource-request',
    title: 'Resource request (one entry per facility)',
    type: 5,
    name: 'resource_request',
    display_name: 'Resource Request',
    jsonSchema: {
      type: 'object',
      title: 'Resource request',
      required: ['facility', 'cpu_hours', 'gpu_hours', 'storage_tb'],
      properties: {
        facility: {
          type: 'string',
          title: 'Facility',
          enum: ['HPC Cluster', 'GPU Cloud', 'Research Data Store'],
        },
        cpu_hours: { type: 'number', title: 'CPU hours', minimum: 0 },
        gpu_hours: { type: 'number', title: 'GPU hours', minimum: 0 },
        storage_tb: { type: 'number', title: 'Storage (TB)', minimum: 0 },
        justification: {
          type: 'string',
          title: 'Justification',
          description: 'How you estimated these amounts.',
          maxLength: 3000,
        },
      },
    },
    uiSchema: {
      facility: { 'ui:placeholder': 'Choose a facility' },
      justification: { 'ui:widget': 'textarea', 'ui:options': { rows: 4 } },
    },
    options: {
      institution_field: 'facility',
      data_fields: ['cpu_hours', 'gpu_hours', 'storage_tb'],
    },
  },
  {
    key: 'instrument-request',
    title: 'Instrument request (one entry per instrument)',
    type: 5,
    name: 'instrument_request',
    display_name: 'Instrument Request',
    jsonSchema: {
      type: 'object',
      title: 'Instrument request',
      required: ['instrument', 'mode', 'hours'],
      properties: {
        instrument: {
          type: 'string',
          title: 'Instrument',
          enum: ['Aurora 2.5 m Telescope', 'Borealis Beamline', 'Cryo-EM Microscope'],
        },
        mode: {
          type: 'string',
          title: 'Observing or measurement mode',
          enum: ['Imaging', 'Spectroscopy', 'Diffraction', 'Tomography'],
        },
        hours: { type: 'number', title: 'Instrument hours', minimum: 0, maximum: 1000 },
        preferred_period: {
          type: 'string',
          title: 'Preferred period',
          description: 'For example "March to May" or "any dark time".',
          maxLength: 200,
        },
        technical_notes: {
          type: 'string',
          title: 'Technical notes',
          description: 'Set-up, samples or targets the facility staff should know of.',
          maxLength: 3000,
        },
      },
    },
    uiSchema: {
      instrument: { 'ui:placeholder': 'Choose an instrument' },
      technical_notes: { 'ui:widget': 'textarea', 'ui:options': { rows: 4 } },
    },
    options: { institution_field: 'instrument', data_fields: ['hours'] },
  },
  {
    key: 'review',
    title: 'Review',
    type: 2,
    name: 'review',
    display_name: 'Review',
    jsonSchema: {
      type: 'object',
      title: 'Review',
      required: ['strengths', 'weaknesses', 'recommendation'],
      properties: {
        strengths: { type: 'string', title: 'Strengths', maxLength: 5000 },
        weaknesses: { type: 'string', title: 'Weaknesses', maxLength: 5000 },
        // Applicants never read reviews: the comments are for the committee's discussion.
        comments_to_committee: {
          type: 'string',
          title: 'Comments to the committee',
          maxLength: 5000,
        },
        recommendation: {
          type: 'string',
          title: 'Recommendation',
          enum: ['Fund', 'Fund with changes', 'Do not fund'],
        },
        conflict_of_interest: {
          type: 'boolean',
          title: 'I have a conflict of interest with this proposal',
          default: false,
        },
      },
    },
    uiSchema: {
      strengths: { 'ui:widget': 'textarea', 'ui:options': { rows: 5 } },
      weaknesses: { 'ui:widget': 'textarea', 'ui:options': { rows: 5 } },
      comments_to_committee: { 'ui:widget': 'textarea', 'ui:options': { rows: 5 } },
      recommendation: { 'ui:widget': 'radio' },
    },
    options: null,
  },
  {
    key: 'review-score',
    title: 'Review scores (average of 1 to 5)',
    type: 3,
    name: 'review_score',
    display_name: 'Review Scores',
    jsonSchema: {
      type: 'object',
      title: 'Scores',
      description: '1 is poor and 5 is excellent.',
      required: ['significance', 'feasibility', 'team', 'value_for_money'],
      properties: {
        significance: { type: 'integer', title: 'Significance', enum: [1, 2, 3, 4, 5] },
        feasibility: { type: 'integer', title: 'Feasibility', enum: [1, 2, 3, 4, 5] },
        team: { type: 'integer', title: 'Team and track record', enum: [1, 2, 3, 4, 5] },
        value_for_money: { type: 'integer', title: 'Value for money', enum: [1, 2, 3, 4, 5] },
        score_comment: { type: 'string', title: 'Comment on the scores', maxLength: 2000 },
      },
    },
    uiSchema: {
      significance: { 'ui:widget': 'radio', 'ui:options': { inline: true } },
      feasibility: { 'ui:widget': 'radio', 'ui:options': { inline: true } },
      team: { 'ui:widget': 'radio', 'ui:options': { inline: true } },
      value_for_money: { 'ui:widget': 'radio', 'ui:options': { inline: true } },
      score_comment: { 'ui:widget': 'textarea', 'ui:options': { rows: 3 } },
    },
    options: {
      method: 'average',
      fields: ['significance', 'feasibility', 'team', 'value_for_money'],
    },
  },
];
