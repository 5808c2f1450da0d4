import { filterKindOfFull, shortEventName } from '../../delivery/endpoint-matching';
import { validationError } from '../../http/sandbox-error';

/**
 * The event rules of an endpoint from a request: distinct known event names (spec: Outgoing webhook
 * management — "an unknown one gives 422", named `events.<index>`), and filters kept only for the
 * filterable events among them ("Filters given for non-filterable events are ignored").
 */
export function eventRules(events: string[], filters: Record<string, number[]> | undefined): { events: string[]; filters: Record<string, number[]> } {
  events.forEach((name, index) => {
    if (!shortEventName(name)) throw validationError(`events.${index}`, `unknown event name ${JSON.stringify(name)}`);
  });
  const distinct = [...new Set(events)];
  const kept: Record<string, number[]> = {};
  for (const [name, ids] of Object.entries(filters ?? {})) {
    if (distinct.includes(name) && filterKindOfFull(name)) kept[name] = [...new Set(ids)];
  }
  return { events: distinct, filters: kept };
}
