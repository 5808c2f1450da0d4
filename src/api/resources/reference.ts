import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import { type BodyInput, listing } from './types';

const e = {
  certificate: endpoints['certificates.create'],
  certificateType: endpoints['certificateTypes.create'],
  calendarEventType: endpoints['calendarEventTypes.create'],
};

/** Staff cards (read only). */
export function staffCardsResource(caller: Caller) {
  return listing(caller, endpoints['staffCards.list']);
}

export function certificatesResource(caller: Caller) {
  return { ...listing(caller, endpoints['certificates.list']), create: (body: BodyInput<typeof e.certificate>) => caller.call(e.certificate, { body }) };
}

export function certificateTypesResource(caller: Caller) {
  return {
    ...listing(caller, endpoints['certificateTypes.list']),
    create: (body: BodyInput<typeof e.certificateType>) => caller.call(e.certificateType, { body }),
  };
}

/** Calendar event types: a calendar entry without `calendar_event_type_id` uses the one named "Default". */
export function calendarEventTypesResource(caller: Caller) {
  return {
    ...listing(caller, endpoints['calendarEventTypes.list']),
    create: (body: BodyInput<typeof e.calendarEventType>) => caller.call(e.calendarEventType, { body }),
  };
}

/** Active content languages and the default one (for achievement translations). */
export function localesResource(caller: Caller) {
  return { get: () => caller.call(endpoints['locales.get']) };
}

/** The org chart, as a paginated list of nodes. */
export function orgChartResource(caller: Caller) {
  return listing(caller, endpoints['orgChart.get']);
}

export function managerHubResource(caller: Caller) {
  return { get: () => caller.call(endpoints['managerHub.get']) };
}
