/**
 * The written part of a review: the text answers of its review forms, labelled as the
 * reviewer saw them (the schema's titles), for the review list's CSV and the chair's
 * comment summaries. Numbers are scores, shown apart; empty answers say nothing.
 */
export interface TextAnswer {
  name: string;
  value: string;
}

type Json = Record<string, unknown>;

export function textAnswers(schema: Json, uiSchema: Json, data: Json): TextAnswer[] {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const answers: TextAnswer[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const value = data[name];
    if (typeof value !== 'string' || value.trim() === '') continue;
    const ui = (uiSchema[name] ?? {}) as Json;
    const title = ui['ui:title'] ?? property.title;
    answers.push({ name: typeof title === 'string' && title ? title : name, value });
  }
  return answers;
}
