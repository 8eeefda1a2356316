import type { Content } from 'pdfmake/interfaces';
import { looksLikeHtml, richText } from './extract-html.js';
import type { ExtractForm } from './extract-input.js';
import { breakable, muted } from './extract-text.js';

/**
 * A form's answers under its schema, for the proposal extract: the entries a form's
 * answers hold, and each field's answer as pdfmake content, walking the JSON schema and
 * UI schema as rjsf shows the form (titles, `ui:order`, `$ref`, choices, nested objects
 * and arrays).
 */

export type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export function entriesOf(form: ExtractForm): Json[] {
  const { answers } = form;
  if (Array.isArray(answers)) return (form.multi ? answers : answers.slice(0, 1)).filter(isObject);
  return isObject(answers) ? [answers] : [];
}

interface Field {
  name: string;
  label: string;
  schema: Json;
  ui: Json;
  value: unknown;
}

/** Past this depth an answer is shown as JSON: deeper nesting is not worth laying out. */
const MAX_DEPTH = 12;

/** An object's fields in the order the form shows them: the schema's, after `ui:order`. */
export function propertiesOf(schema: Json, ui: Json, value: unknown, root: Json): Field[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const answers = isObject(value) ? value : {};
  // Without properties (a free-form object) the answers are all there is to go by.
  const names = Object.keys(properties).length
    ? ordered(Object.keys(properties), ui['ui:order'])
    : Object.keys(answers);
  return names.map((name) => {
    const propertySchema = resolve(properties[name], root);
    const propertyUi = isObject(ui[name]) ? ui[name] : {};
    return {
      name,
      label: titleOf(propertySchema, propertyUi) ?? name,
      schema: propertySchema,
      ui: propertyUi,
      value: answers[name],
    };
  });
}

/** rjsf's `ui:order`: the listed names first, the rest where `*` stands, else at the end. */
function ordered(names: string[], order: unknown): string[] {
  if (!Array.isArray(order)) return names;
  const listed = order.filter((name): name is string => names.includes(name as string));
  const rest = names.filter((name) => !listed.includes(name));
  const star = order.indexOf('*');
  if (star < 0) return [...listed, ...rest];
  const before = order.slice(0, star).filter((name) => listed.includes(name as string));
  return [...(before as string[]), ...rest, ...listed.slice(before.length)];
}

/** The title a person sees on the form: the UI schema's, as rjsf prefers it, else the schema's. */
function titleOf(schema: Json, ui: Json): string | undefined {
  const options = ui['ui:options'];
  const title = ui['ui:title'] ?? (isObject(options) ? options.title : undefined) ?? schema.title;
  return typeof title === 'string' && title.trim() ? title : undefined;
}

/** Follows a local `$ref` (`#/definitions/address`), as rjsf does; others stay as they are. */
function resolve(schema: unknown, root: Json, depth = 0): Json {
  if (!isObject(schema)) return {};
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#') || depth > 16) return schema;
  let target: unknown = root;
  for (const segment of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');
    target = isObject(target) ? target[key] : undefined;
  }
  const { $ref: _ref, ...rest } = schema;
  return { ...resolve(target, root, depth + 1), ...rest };
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

export function fieldBlock(field: Field, root: Json, depth: number): Content {
  const { label, schema, ui, value } = field;
  if (depth >= MAX_DEPTH && !isEmpty(value)) {
    return labelled(label, breakable(JSON.stringify(value) ?? String(value)));
  }
  const isGroup =
    isObject(value) ||
    (value === undefined && (schema.type === 'object' || isObject(schema.properties)));
  if (isGroup) {
    return group(
      label,
      propertiesOf(schema, ui, value, root).map((child) => fieldBlock(child, root, depth + 1)),
    );
  }
  if (Array.isArray(value) && value.some(isObject)) {
    const itemUi = isObject(ui.items) ? ui.items : {};
    return group(
      label,
      value.map((item, i) => {
        const itemSchema = itemSchemaOf(schema, i, root);
        return group(
          `Item ${i + 1}`,
          isObject(item)
            ? propertiesOf(itemSchema, itemUi, item, root).map((child) =>
                fieldBlock(child, root, depth + 2),
              )
            : [answer(item, itemSchema, itemUi, root)],
        );
      }),
    );
  }
  return labelled(label, answer(value, schema, ui, root));
}

function itemSchemaOf(schema: Json, index: number, root: Json): Json {
  const items = schema.items;
  if (Array.isArray(items)) return resolve(items[index] ?? schema.additionalItems, root);
  return resolve(items, root);
}

/** A plain answer: text, a number, a choice, a list of them, or rich text. */
function answer(value: unknown, schema: Json, ui: Json, root: Json): Content {
  if (isEmpty(value)) return notAnswered();
  const choice = choiceTitle(value, schema, ui);
  if (choice !== undefined) return breakable(choice);
  if (Array.isArray(value)) {
    const itemUi = isObject(ui.items) ? ui.items : {};
    return {
      ul: value.map((item, i) => answer(item, itemSchemaOf(schema, i, root), itemUi, root)),
      margin: [0, 1, 0, 0],
    };
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return breakable(JSON.stringify(value) ?? String(value));
  if (looksLikeHtml(value)) return richText(value) ?? notAnswered();
  if (value.startsWith('data:')) return embeddedFile(value);
  return plainText(value);
}

/**
 * Text a line at a time. pdfmake lays out one text in time that grows with the square of
 * its length: a 300 KB answer took 28 s as one text and under a second as its lines, and
 * a 1 MB one six minutes against two seconds. A blank line keeps its height as a space.
 */
function plainText(value: string): Content {
  if (!value.includes('\n')) return breakable(value);
  return { stack: value.split('\n').map((line) => breakable(line) || ' ') };
}

/** A choice's title, from `oneOf`/`anyOf` entries with `const`, or `enumNames`. */
function choiceTitle(value: unknown, schema: Json, ui: Json): string | undefined {
  for (const option of [schema.oneOf, schema.anyOf].flatMap((o) => (Array.isArray(o) ? o : []))) {
    if (isObject(option) && option.const === value && typeof option.title === 'string') {
      return option.title;
    }
  }
  if (!Array.isArray(schema.enum)) return undefined;
  const names = schema.enumNames ?? ui['ui:enumNames'];
  const name = Array.isArray(names) ? names[schema.enum.indexOf(value)] : undefined;
  return typeof name === 'string' ? name : undefined;
}

/** rjsf's own file widget stores `data:<type>;name=<file>;base64,…`: show its name only. */
function embeddedFile(dataUrl: string): Content {
  const name = /;name=([^;,]*)/.exec(dataUrl)?.[1];
  let decoded = 'a file';
  if (name) {
    try {
      decoded = decodeURIComponent(name);
    } catch {
      decoded = name;
    }
  }
  return { text: [breakable(decoded), muted(' (embedded file, not included)')] };
}

export function labelled(label: string, value: Content): Content {
  const short = typeof value === 'string' && value.length < 200 && !value.includes('\n');
  // Short answers stay on their label's page; long ones may need to break across pages.
  return {
    stack: [{ text: breakable(label), style: 'label' }, value],
    margin: [0, 0, 0, 8],
    unbreakable: short,
  };
}

function group(label: string, children: Content[]): Content {
  return {
    stack: [
      { text: breakable(label), style: 'groupHeading' },
      { stack: children.length ? children : [muted('No fields')], margin: [10, 0, 0, 0] },
    ],
    margin: [0, 0, 0, 4],
  };
}

function notAnswered(): Content {
  return muted('Not answered');
}
