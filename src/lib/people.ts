/** How a person is named in messages and tables: the one rule, whatever the record (student, report row, nested student). */
export interface Named {
  first_name?: unknown;
  last_name?: unknown;
  full_name?: unknown;
  email?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** `full_name` when the API sends one, else first and last name; '' when neither. */
export function personName(person: Named): string {
  return text(person.full_name) || [text(person.first_name), text(person.last_name)].filter(Boolean).join(' ');
}

/** `Maria Silva <maria@example.com>`, else the name or the e-mail alone; '' when neither. */
export function nameAndEmail(person: Named): string {
  const name = personName(person);
  const email = text(person.email);
  return name && email ? `${name} <${email}>` : name || email;
}
