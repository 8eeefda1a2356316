import { describe, expect, it } from 'vitest';
import {
  facilitiesOf,
  facilityLabel,
  facilityOf,
  resourceFieldTitle,
  resourceFieldTitles,
  resourceTotals,
  resourceValues,
  UNNAMED_FACILITY,
  type ResourceEntry,
  type ResourceValues,
} from './resources.js';

/** A resource form whose entries name a facility and ask for hours and nights. */
const named = { institution_field: 'facility', data_fields: ['hours', 'nights'] };
/** A resource form without a facility field: one unnamed facility. */
const unnamed = { institution_field: null, data_fields: ['hours', 'nights'] };
const entry = (options: ResourceEntry['options'], data: Record<string, unknown>) => ({
  options,
  data,
});

describe('the facility of an entry', () => {
  it.each([
    ['the text of its facility field', named, { facility: 'ATCA' }, 'ATCA'],
    ['a number as its digits', named, { facility: 64 }, '64'],
    ['the unnamed facility when the form has no facility field', unnamed, { facility: 'ATCA' }, ''],
    ['the unnamed facility when the entry left it empty', named, {}, ''],
    ['the unnamed facility for anything but text or a number', named, { facility: ['x'] }, ''],
  ])('%s', (_name, options, data, expected) => {
    expect(facilityOf(entry(options, data))).toBe(expected);
  });

  it('labels the unnamed facility for people', () => {
    expect(facilityLabel(UNNAMED_FACILITY)).toBe('Facility');
    expect(facilityLabel('Parkes')).toBe('Parkes');
  });
});

describe('a proposal’s resource values', () => {
  it.each<[string, ResourceEntry[], ResourceValues]>([
    ['nothing saved', [], {}],
    [
      'one entry of a named facility',
      [entry(named, { facility: 'ATCA', hours: 12, nights: 2 })],
      { ATCA: { hours: 12, nights: 2 } },
    ],
    [
      'a form without a facility field',
      [entry(unnamed, { hours: 5, nights: 1 })],
      { '': { hours: 5, nights: 1 } },
    ],
    [
      'a missing value is left out, not counted as zero',
      [entry(named, { facility: 'ATCA', hours: 12 })],
      { ATCA: { hours: 12 } },
    ],
    [
      'text is not a number',
      [entry(named, { facility: 'ATCA', hours: '12', nights: 3 })],
      { ATCA: { nights: 3 } },
    ],
    [
      'a facility asked for without numbers still shows',
      [entry(named, { facility: 'Parkes' })],
      { Parkes: {} },
    ],
    [
      'entries of a multi-entry form sum per facility',
      [
        entry(named, { facility: 'ATCA', hours: 12, nights: 2 }),
        entry(named, { facility: 'Parkes', hours: 4 }),
        entry(named, { facility: 'ATCA', hours: 0.5, nights: 1 }),
      ],
      { ATCA: { hours: 12.5, nights: 3 }, Parkes: { hours: 4 } },
    ],
    [
      'several resource forms add up under one facility',
      [entry(unnamed, { hours: 2 }), entry({ ...unnamed, data_fields: ['hours'] }, { hours: 3 })],
      { '': { hours: 5 } },
    ],
    [
      'only the data fields count',
      [entry({ ...named, data_fields: ['hours'] }, { facility: 'ATCA', hours: 1, nights: 9 })],
      { ATCA: { hours: 1 } },
    ],
  ])('%s', (_name, entries, expected) => {
    expect(resourceValues(entries)).toEqual(expected);
  });
});

describe('a call’s resource totals', () => {
  const atca = (hours: number, nights?: number): ResourceValues => ({
    ATCA: nights === undefined ? { hours } : { hours, nights },
  });
  it.each<[string, { stateVal: number; values: ResourceValues }[], ResourceValues]>([
    ['no proposals', [], {}],
    [
      'submitted and reviewed proposals sum',
      [
        { stateVal: 1, values: atca(10, 1) },
        { stateVal: 2, values: atca(5, 2) },
      ],
      { ATCA: { hours: 15, nights: 3 } },
    ],
    [
      'drafts are left out',
      [
        { stateVal: 1, values: atca(10, 1) },
        { stateVal: 0, values: { ...atca(100, 100), Parkes: { hours: 7 } } },
      ],
      { ATCA: { hours: 10, nights: 1 } },
    ],
    [
      'a field one proposal left empty sums over the others',
      [
        { stateVal: 1, values: atca(10) },
        { stateVal: 1, values: atca(5, 2) },
      ],
      { ATCA: { hours: 15, nights: 2 } },
    ],
    [
      'facilities stay apart, the unnamed one too',
      [
        { stateVal: 1, values: { ...atca(1), '': { hours: 2 } } },
        { stateVal: 1, values: { Parkes: { nights: 4 }, '': { hours: 3 } } },
      ],
      { ATCA: { hours: 1 }, Parkes: { nights: 4 }, '': { hours: 5 } },
    ],
    [
      'a facility without numbers has no fields (N/A)',
      [{ stateVal: 1, values: { Parkes: {} } }],
      { Parkes: {} },
    ],
  ])('%s', (_name, proposals, expected) => {
    expect(resourceTotals(proposals)).toEqual(expected);
  });

  it('lists the facilities named, the unnamed one first, then by name', () => {
    expect(facilitiesOf([{ Parkes: {} }, { ATCA: { hours: 1 }, '': {} }, { Parkes: {} }])).toEqual([
      '',
      'ATCA',
      'Parkes',
    ]);
  });
});

describe('the titles of the resource forms’ data fields', () => {
  const schema = (properties: Record<string, unknown>) => ({ type: 'object', properties });

  it('names each data field by its title, the ui:title first, and only data fields', () => {
    const titles = resourceFieldTitles([
      {
        jsonSchema: schema({
          facility: { type: 'string', title: 'Facility' },
          cpu_hours: { type: 'number', title: 'CPU hours' },
          gpu_hours: { type: 'number', title: 'GPU hours' },
        }),
        uiSchema: { gpu_hours: { 'ui:title': 'GPU hours (A100)' } },
        options: { institution_field: 'facility', data_fields: ['cpu_hours', 'gpu_hours'] },
      },
    ]);
    expect(titles).toEqual({ cpu_hours: 'CPU hours', gpu_hours: 'GPU hours (A100)' });
  });

  it('keeps the first form’s title of a field two forms share, and the key without one', () => {
    const titles = resourceFieldTitles([
      {
        jsonSchema: schema({ hours: { type: 'number' }, nights: { type: 'number', title: ' ' } }),
        options: unnamed,
      },
      {
        jsonSchema: schema({ hours: { type: 'number', title: 'Hours' } }),
        uiSchema: null,
        options: { institution_field: null, data_fields: ['hours'] },
      },
      {
        jsonSchema: schema({ hours: { type: 'number', title: 'Other hours' } }),
        options: { institution_field: null, data_fields: ['hours'] },
      },
    ]);
    expect(titles).toEqual({ hours: 'Hours' });
    expect(resourceFieldTitle(titles, 'hours')).toBe('Hours');
    expect(resourceFieldTitle(titles, 'nights')).toBe('nights');
    // A key that is a name of Object's prototype is still a key.
    expect(resourceFieldTitle(titles, 'constructor')).toBe('constructor');
  });
});
