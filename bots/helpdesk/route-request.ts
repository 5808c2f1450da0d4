import type { DeskForm } from './helpdesk-config';

/**
 * The assignee the first matching rule names for these answers, or undefined for the triage wall.
 * An answer matches when it equals the rule's value ignoring case and surrounding spaces; a
 * multiple-choice answer (an array) matches when one of its values does.
 *
 * @example routeOf({ id: 1, routes: [{ field: 'item', equals: 'Laptop', assignee: 12 }] }, { item: 'laptop' }) // 12
 */
export function routeOf(form: DeskForm, answers: Record<string, unknown>): number | undefined {
  const norm = (v: unknown) => String(v).trim().toLowerCase();
  for (const route of form.routes) {
    const answer = answers[route.field];
    const values = Array.isArray(answer) ? answer : [answer];
    if (values.some((v) => v !== undefined && v !== null && norm(v) === norm(route.equals))) return route.assignee;
  }
  return undefined;
}
