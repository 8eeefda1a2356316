import fc from 'fast-check';
import { z } from 'zod';
import type { RegisteredRoute } from '../../src/platform/http/app-types.js';
import { idArb, valueFor, type JsonSchema } from './values.js';

/**
 * Fuzzed requests for one route: a valid-shaped request from its zod contract (body,
 * query string and path parameters), then maybe broken in one of the ways clients and
 * attackers break them. Each request is plain data, so a failure prints what was sent.
 */

export const PERSONAS = ['admin', 'chair', 'author', 'reviewer', 'anonymous', 'badToken'] as const;
export type Persona = (typeof PERSONAS)[number];

export interface FuzzRequest {
  method: string;
  /** The route as registered, method, `:param`s and all (for the tallies). */
  route: string;
  url: string;
  persona: Persona;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** What was done to the valid request, for the report. */
  mutation: string;
}

/** A valid body for a route, made from the world when needed, and who would send it. */
export interface Example {
  as: Persona;
  body: () => unknown;
}

export const toJsonSchema = (schema: z.ZodType | undefined): JsonSchema | undefined =>
  schema
    ? (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema)
    : undefined;

/** A short, printable account of a request (bodies can be megabytes). */
export function describeRequest(request: FuzzRequest): string {
  const body =
    request.payload === undefined
      ? ''
      : ` body(${request.payload.length}${typeof request.payload === 'string' ? ' chars' : ' bytes'}): ${JSON.stringify(
          request.payload.toString().slice(0, 300),
        )}`;
  const url = request.url.length > 300 ? `${request.url.slice(0, 300)}…` : request.url;
  const contentType = request.headers['content-type'] ?? '(none)';
  return `${request.method} ${url} as ${request.persona} [${request.mutation}] content-type ${contentType}${body}`;
}

// ---------------------------------------------------------------------------------------
// Odd values

const LONE_SURROGATES = ['\ud800', '\udfff', 'a\ud83d', '\ude00b'];
const ODD_TEXT = [
  '\u0000',
  'a\u0000b',
  '\u202eevil\u202c', // right-to-left override
  '\u200f\u05e9\u05dc\u05d5\u05dd', // right-to-left mark, Hebrew
  '\u0645\u0631\u062d\u0628\u0627',
  '\u200b\u200c\u200d\u2060\ufeff', // zero-width characters and a BOM
  '👩‍👩‍👧‍👦🏳️‍🌈🇦🇺',
  'e\u0301\u0301\u0301\u0301\u0301', // combining marks
  '\uffff\ufffe\ufffd',
  '\u{10ffff}\u{e0001}',
  '\r\n\t\u000b\u000c\u0085\u2028\u2029',
  '${7*7}{{7*7}}<%= 7 %>',
  "'; drop table users; --",
  '<script>alert(1)</script><img src=x onerror=alert(1)>',
  '../../../etc/passwd',
  '%00%ff%c0%af',
  ' ',
  '',
  'null',
  '__proto__',
];

const oddCharArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_TEXT) },
  { weight: 1, arbitrary: fc.constantFrom(...LONE_SURROGATES) },
  {
    weight: 2,
    arbitrary: fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  },
);
export const oddTextArb = fc
  .array(oddCharArb, { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join(''));

/** Numbers no id and few counts should be. */
const ODD_NUMBERS = [
  -1,
  0,
  -0,
  1.5,
  0.0001,
  -2147483648,
  2147483648,
  4294967296,
  9007199254740991,
  2 ** 53 + 2,
  1e21,
  1e308,
  -1e308,
  5e-324,
];

const wrongTypeArb = fc.oneof(
  fc.constantFrom<unknown>(
    '1',
    '',
    'true',
    '0x10',
    '1e0',
    'NaN',
    'Infinity',
    '2026-13-45T25:61:61Z',
    true,
    false,
    null,
    [],
    {},
    [1],
    [null],
    { id: 1 },
    { $gt: '' },
  ),
  fc.constantFrom(...ODD_NUMBERS),
  oddTextArb,
);

const EXTRA_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'id',
  'userId',
  'isAdmin',
  'is_admin',
  'isActive',
  'stateVal',
  'authorId',
  '',
  ' ',
  'a.b',
  '0',
  '$where',
  'a\u0000b',
  '\ud800',
];

// ---------------------------------------------------------------------------------------
// Paths into a JSON value, and edits at a path

type Path = (string | number)[];

function pathsOf(value: unknown, path: Path = [], into: Path[] = []): Path[] {
  into.push(path);
  if (into.length > 200) return into;
  if (Array.isArray(value)) value.forEach((item, i) => pathsOf(item, [...path, i], into));
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) pathsOf(item, [...path, key], into);
  return into;
}

const clone = <T>(value: T): T => structuredClone(value);

/** Sets `key` as an own property, even `__proto__`, so JSON.stringify sends it. */
function setOwn(target: Record<string | number, unknown>, key: string | number, value: unknown) {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    configurable: true,
    writable: true,
  });
}

function replaceAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = clone(root);
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  setOwn(node, path.at(-1)!, value);
  return copy;
}

function removeAt(root: unknown, path: Path): unknown {
  if (path.length === 0) return undefined;
  const copy = clone(root);
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  if (Array.isArray(node)) node.splice(Number(path.at(-1)), 1);
  else delete node[path.at(-1)!];
  return copy;
}

const getAt = (root: unknown, path: Path): unknown =>
  path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], root);

/**
 * A size, mostly small (each huge body costs the run time), now and then up to `huge`,
 * past the 1 MB body limit for strings.
 */
const sizeArb = (small: number, large: number, huge: number) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: small, max: large }) },
    { weight: 1, arbitrary: fc.integer({ min: large, max: huge }) },
  );

/** A placeholder the serializer swaps for raw JSON too deep to build as a value. */
const DEEP = '\u0001deep\u0001';

const deepJson = (depth: number, kind: 'array' | 'object') =>
  kind === 'array'
    ? '['.repeat(depth) + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

interface Body {
  value: unknown;
  /** Raw JSON to put where the value holds the DEEP placeholder. */
  deep?: string;
  mutation: string;
}

/** One edit to a valid body (or none): the mutations the issue asks for. */
function mutateBody(value: unknown): fc.Arbitrary<Body> {
  const paths = pathsOf(value);
  // Mostly leaves, where a value reaches the handler inside a body that still parses.
  const leaves = paths.filter((p) => {
    const node = getAt(value, p);
    return node === null || typeof node !== 'object';
  });
  const pathArb =
    leaves.length > 0
      ? fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...leaves) },
          { weight: 1, arbitrary: fc.constantFrom(...paths) },
        )
      : fc.constantFrom(...paths);
  const inner = paths.filter((p) => p.length > 0);
  const objects = paths.filter((p) => {
    const node = getAt(value, p);
    return node !== null && typeof node === 'object' && !Array.isArray(node);
  });
  const options: { weight: number; arbitrary: fc.Arbitrary<Body> }[] = [
    { weight: 8, arbitrary: fc.constant({ value, mutation: 'valid' }) },
    {
      weight: 4,
      arbitrary: fc.tuple(pathArb, wrongTypeArb).map(([path, bad]) => ({
        value: replaceAt(value, path, bad),
        mutation: `wrong type at ${path.join('.') || '(root)'}`,
      })),
    },
    {
      weight: 3,
      arbitrary: fc.tuple(pathArb, oddTextArb).map(([path, text]) => ({
        value: replaceAt(value, path, text),
        mutation: `odd text at ${path.join('.') || '(root)'}`,
      })),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(pathArb, fc.constantFrom(...ODD_NUMBERS)).map(([path, n]) => ({
        value: replaceAt(value, path, n),
        mutation: `odd number ${n} at ${path.join('.') || '(root)'}`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          pathArb,
          sizeArb(5_000, 200_000, 1_200_000),
          fc.constantFrom('a', 'é', '😀', '\u202e', ' '),
        )
        .map(([path, length, char]) => ({
          value: replaceAt(value, path, char.repeat(Math.ceil(length / char.length))),
          mutation: `huge string (${length}) at ${path.join('.') || '(root)'}`,
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          pathArb,
          sizeArb(1_000, 20_000, 120_000),
          fc.constantFrom<unknown>(1, 'x', null, {}, []),
        )
        .map(([path, length, item]) => ({
          value: replaceAt(
            value,
            path,
            Array.from({ length }, () => item),
          ),
          mutation: `huge array (${length}) at ${path.join('.') || '(root)'}`,
        })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          pathArb,
          sizeArb(64, 2_000, 20_000),
          fc.constantFrom<'array' | 'object'>('array', 'object'),
        )
        .map(([path, depth, kind]) => ({
          value: replaceAt(value, path, DEEP),
          deep: deepJson(depth, kind),
          mutation: `nesting ${depth} deep (${kind}) at ${path.join('.') || '(root)'}`,
        })),
    },
  ];
  if (inner.length > 0)
    options.push({
      weight: 3,
      arbitrary: fc.constantFrom(...inner).map((path) => ({
        value: removeAt(value, path),
        mutation: `missing ${path.join('.')}`,
      })),
    });
  if (objects.length > 0)
    options.push({
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...objects),
          fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 8 })),
          wrongTypeArb,
        )
        .map(([path, key, extra]) => {
          const copy = clone(value);
          setOwn(getAt(copy, path) as Record<string, unknown>, key, extra);
          return {
            value: copy,
            mutation: `extra field ${JSON.stringify(key)} at ${path.join('.') || '(root)'}`,
          };
        }),
    });
  return fc.oneof(...options);
}

function serialize(body: Body): string {
  const text = JSON.stringify(body.value) ?? '';
  return body.deep ? text.replace(JSON.stringify(DEEP), body.deep) : text;
}

/** Bodies no JSON parser should accept, or that say something else than they are. */
const MALFORMED: (string | Buffer)[] = [
  '',
  '{',
  '}',
  '{"a":}',
  "{'a': 1}",
  '{"a": 1,}',
  '[1, 2',
  '{"a": 1} trailing',
  '\ufeff{}',
  ")]}'\n{}",
  'null',
  'true',
  '0',
  '-',
  '"text"',
  '[]',
  '1e999999',
  '{"a": 1e999999}',
  '{"a": NaN}',
  '{"__proto__": {"isAdmin": true}}',
  '{"constructor": {"prototype": {"isAdmin": true}}}',
  '{"a": 1, "a": 2}',
  '{"a": "\\ud800"}',
  '{"a": "\\u0000"}',
  '{"a": "\\x41"}',
  Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
  Buffer.alloc(64),
];

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'application/octet-stream',
  'application/offset+octet-stream',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/JSON',
  'application/json;;;',
  'application/vnd.api+json',
  'application/json-patch+json',
  '*/*',
  'garbage',
];

// ---------------------------------------------------------------------------------------
// Query strings and path parameters

const enc = encodeURIComponent;

const ODD_QUERY = [
  'page=1&page=2',
  'q=a&q=b&sort=name&sort=-name',
  'a[b]=c',
  'a[]=1&a[]=2',
  '__proto__[isAdmin]=true',
  'constructor[prototype][isAdmin]=true',
  '%zz=1',
  'a=%',
  '=',
  '&&&',
  '?',
  'a=%F0%9F%98%80',
  'a=%ED%A0%80',
  'a=%C0%AF',
  'a=%EF%BB%BF',
  'q=' + 'x'.repeat(9_000),
  'a'.repeat(3_000) + '=1',
  'token=' + 'a'.repeat(500),
  'ticket=%00',
  'page=0&pageSize=-1',
  'page=99999999999&pageSize=99999999999',
  'sort=__proto__',
];

function queryFor(
  schema: JsonSchema | undefined,
): fc.Arbitrary<{ query: string; mutation?: string }> {
  const valid = schema
    ? valueFor(schema).map((value) =>
        Object.entries((value ?? {}) as Record<string, unknown>)
          .map(([key, v]) => `${enc(key)}=${enc(String(v))}`)
          .join('&'),
      )
    : fc.constant('');
  return fc.oneof(
    { weight: 8, arbitrary: valid.map((query) => ({ query })) },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.constantFrom(...ODD_QUERY)).map(([query, odd]) => ({
        query: [query, odd].filter(Boolean).join('&'),
        mutation: 'odd query',
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.string({ maxLength: 8 }), oddTextArb)
        .map(([query, key, text]) => ({
          query: [query, `${enc(key || 'q')}=${encodeLoosely(text)}`].filter(Boolean).join('&'),
          mutation: 'odd text in query',
        })),
    },
  );
}

/** Percent-encodes what encodeURIComponent can; a lone surrogate as the bytes a broken client sends. */
function encodeLoosely(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff)
      out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
    else out += enc(char);
  }
  return out;
}

const ODD_PARAMS = [
  '-1',
  '0',
  '00',
  '2147483648',
  '99999999999',
  '1.5',
  '1e3',
  'abc',
  '%00',
  '%20',
  '%F0%9F%98%80',
  '%ED%A0%80',
  '%zz',
  '..',
  '%2e%2e',
  '1%2F2',
  '1;2',
  'x'.repeat(5_000),
  '__proto__',
  'constructor',
];

function pathFor(route: RegisteredRoute, params: JsonSchema | undefined) {
  const names = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  if (names.length === 0)
    return fc.constant({ url: route.url, mutation: undefined as string | undefined });
  const validValue = (name: string) => {
    const property = params?.properties?.[name];
    return property ? valueFor(property).map(String) : idArb.map(String);
  };
  const value = (name: string) =>
    fc.oneof(
      { weight: 12, arbitrary: validValue(name).map((v) => ({ v, odd: false })) },
      { weight: 1, arbitrary: fc.constantFrom(...ODD_PARAMS).map((v) => ({ v, odd: true })) },
      { weight: 1, arbitrary: oddTextArb.map((t) => ({ v: encodeLoosely(t), odd: true })) },
    );
  return fc.tuple(...names.map(value)).map((values) => {
    let i = 0;
    const url = route.url.replace(/:(\w+)/g, () => values[i++]!.v);
    return { url, mutation: values.some((v) => v.odd) ? 'odd path parameter' : undefined };
  });
}

// ---------------------------------------------------------------------------------------
// Whole requests

const BAD_AUTHORIZATION = [
  'Token nope',
  'Token ',
  'Bearer abc',
  'Basic YWRtaW46YWRtaW4=',
  `Token ${'a'.repeat(4_000)}`,
  'Token a b c',
  'token\tabc',
];

/**
 * Requests for one route; the runner adds the persona's token when it sends one.
 * `example`, when given, makes a valid body from the world as it is when the request is
 * generated: the mutations start from it twice as often as from a generated one, and
 * its sender sends two requests in three.
 */
export function requestArb(route: RegisteredRoute, example?: Example): fc.Arbitrary<FuzzRequest> {
  const bodySchema = toJsonSchema(route.body);
  const generated = valueFor(bodySchema ?? { type: 'object' });
  const validBody = example
    ? fc.oneof(
        { weight: 1, arbitrary: generated },
        { weight: 2, arbitrary: fc.constant(null).map(() => example.body()) },
      )
    : generated;
  const takesBody = route.method !== 'GET';
  const personaArb = fc.oneof(
    { weight: 3, arbitrary: fc.constant<Persona>('admin') },
    { weight: 3, arbitrary: fc.constant<Persona>('chair') },
    { weight: 3, arbitrary: fc.constant<Persona>('author') },
    { weight: 2, arbitrary: fc.constant<Persona>('reviewer') },
    { weight: 1, arbitrary: fc.constant<Persona>('anonymous') },
    { weight: 1, arbitrary: fc.constant<Persona>('badToken') },
  );
  const bodyArb: fc.Arbitrary<{
    payload?: string | Buffer;
    contentType?: string;
    mutation: string;
  }> = takesBody
    ? fc.oneof(
        {
          weight: 10,
          arbitrary: validBody.chain(mutateBody).map((body) => ({
            payload: serialize(body),
            contentType: 'application/json',
            mutation: body.mutation,
          })),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom(...MALFORMED).map((payload) => ({
            payload,
            contentType: 'application/json',
            mutation: 'malformed JSON',
          })),
        },
        {
          weight: 1,
          arbitrary: fc
            .tuple(validBody, fc.constantFrom(...CONTENT_TYPES, undefined))
            .map(([value, contentType]) => ({
              payload: JSON.stringify(value) ?? '',
              contentType,
              mutation: `content-type ${contentType ?? '(none)'}`,
            })),
        },
      )
    : fc.constant({ mutation: 'valid' });
  return fc
    .record({
      path: pathFor(route, toJsonSchema(route.params)),
      query: queryFor(toJsonSchema(route.query)),
      body: bodyArb,
      persona: example
        ? fc.oneof(
            { weight: 2, arbitrary: fc.constant<Persona>(example.as) },
            { weight: 1, arbitrary: personaArb },
          )
        : personaArb,
      badAuthorization: fc.constantFrom(...BAD_AUTHORIZATION),
      method: fc.oneof(
        { weight: 40, arbitrary: fc.constant(route.method) },
        { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') },
      ),
      requestId: fc.oneof(
        { weight: 40, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom('', 'x'.repeat(8_000), '../../x', '{"a":1}') },
      ),
    })
    .map(({ path, query, body, persona, badAuthorization, method, requestId }) => {
      const headers: Record<string, string> = {};
      if (persona === 'badToken') headers.authorization = badAuthorization;
      if (body.contentType) headers['content-type'] = body.contentType;
      if (requestId !== undefined) headers['x-request-id'] = requestId;
      const mutations = [
        method !== route.method ? `method ${method}` : undefined,
        requestId !== undefined ? 'odd x-request-id' : undefined,
        path.mutation,
        query.mutation,
        body.mutation,
      ].filter((m) => m && m !== 'valid');
      const request: FuzzRequest = {
        method,
        route: `${route.method} ${route.url}`,
        url: query.query ? `${path.url}?${query.query}` : path.url,
        persona,
        headers,
        mutation: mutations.join('; ') || 'valid',
        ...(body.payload !== undefined ? { payload: body.payload } : {}),
      };
      return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
    });
}
