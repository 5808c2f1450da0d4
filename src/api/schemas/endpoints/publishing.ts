// spec: Announcements, Events, Calendar entries — content with a publication state.
import { PaginationQuerySchema, StatusListQuerySchema } from '../query';
import { AnnouncementCreateSchema, AnnouncementSchema, AnnouncementUpdateSchema } from '../announcement';
import { ConfirmationSchema } from '../confirmation';
import { EventCreateSchema, EventSchema, EventUpdateSchema } from '../event';
import { CalendarEntryCreateSchema, CalendarEntrySchema, CalendarEntryUpdateSchema } from '../calendar-entry';
import { NoContentSchema, endpoint } from './define';

export const announcementEndpoints = {
  'announcements.list': endpoint({
    id: 'announcements.list', method: 'GET', path: '/announcements', scope: 'read:announcements', section: 'Announcements',
    summary: 'Paginated announcements; published by default, `status` accepted.', query: StatusListQuerySchema, statusFilter: true,
    responseKind: 'list', response: AnnouncementSchema, errors: [422],
  }),
  'announcements.get': endpoint({
    id: 'announcements.get', method: 'GET', path: '/announcements/{id}', scope: 'read:announcements', section: 'Announcements',
    summary: 'One announcement, whatever its state.', responseKind: 'single', response: AnnouncementSchema, errors: [404],
  }),
  'announcements.create': endpoint({
    id: 'announcements.create', method: 'POST', path: '/announcements', scope: 'write:announcements', section: 'Announcements',
    summary: 'Creates an announcement (published unless `is_published` is false).', body: AnnouncementCreateSchema,
    responseKind: 'single', response: AnnouncementSchema, errors: [422], creates: true,
  }),
  'announcements.update': endpoint({
    id: 'announcements.update', method: 'PUT', path: '/announcements/{id}', scope: 'write:announcements', section: 'Announcements',
    summary: 'Changes the sent fields of an announcement.', body: AnnouncementUpdateSchema,
    responseKind: 'single', response: AnnouncementSchema, errors: [404, 422],
  }),
  'announcements.delete': endpoint({
    id: 'announcements.delete', method: 'DELETE', path: '/announcements/{id}', scope: 'write:announcements', section: 'Announcements',
    summary: 'Deletes an announcement.', responseKind: 'empty', response: NoContentSchema, errors: [404],
  }),
  'announcements.confirmations': endpoint({
    id: 'announcements.confirmations', method: 'GET', path: '/announcements/{id}/confirmations', scope: 'read:announcements',
    section: 'Announcements', summary: 'Confirmations of one announcement.', query: PaginationQuerySchema,
    responseKind: 'list', response: ConfirmationSchema, errors: [404],
  }),
};

export const confirmationEndpoints = {
  'confirmations.list': endpoint({
    id: 'confirmations.list', method: 'GET', path: '/confirmations', scope: 'read:announcements', section: 'Announcements',
    summary: 'Every announcement confirmation, newest first; accepts `since`.', query: PaginationQuerySchema,
    responseKind: 'list', response: ConfirmationSchema,
  }),
};

export const eventEndpoints = {
  'events.list': endpoint({
    id: 'events.list', method: 'GET', path: '/events', scope: 'read:events', section: 'Events',
    summary: 'Paginated events; published by default, `status` accepted.', query: StatusListQuerySchema, statusFilter: true,
    responseKind: 'list', response: EventSchema, errors: [422],
  }),
  'events.get': endpoint({
    id: 'events.get', method: 'GET', path: '/events/{id}', scope: 'read:events', section: 'Events',
    summary: 'One event, including drafts and scheduled ones.', responseKind: 'single', response: EventSchema, errors: [404],
  }),
  'events.create': endpoint({
    id: 'events.create', method: 'POST', path: '/events', scope: 'write:events', section: 'Events',
    summary: 'Creates an event: a draft unless `is_published` or a future `publish_at` is sent.', body: EventCreateSchema,
    responseKind: 'single', response: EventSchema, errors: [422], creates: true,
  }),
  'events.update': endpoint({
    id: 'events.update', method: 'PUT', path: '/events/{id}', scope: 'write:events', section: 'Events',
    summary: 'Changes the sent fields and the publication state (spec: Event publication state).', body: EventUpdateSchema,
    responseKind: 'single', response: EventSchema, errors: [404, 422],
  }),
  'events.delete': endpoint({
    id: 'events.delete', method: 'DELETE', path: '/events/{id}', scope: 'write:events', section: 'Events',
    summary: 'Deletes an event.', responseKind: 'empty', response: NoContentSchema, errors: [404],
  }),
};

export const calendarEntryEndpoints = {
  'calendarEntries.list': endpoint({
    id: 'calendarEntries.list', method: 'GET', path: '/calendar-entries', scope: 'read:calendar_entries', section: 'Calendar entries',
    summary: 'Paginated calendar entries; `status` accepted.', query: StatusListQuerySchema, statusFilter: true,
    responseKind: 'list', response: CalendarEntrySchema, errors: [422],
  }),
  'calendarEntries.get': endpoint({
    id: 'calendarEntries.get', method: 'GET', path: '/calendar-entries/{id}', scope: 'read:calendar_entries', section: 'Calendar entries',
    summary: 'One calendar entry.', responseKind: 'single', response: CalendarEntrySchema, errors: [404],
  }),
  'calendarEntries.create': endpoint({
    id: 'calendarEntries.create', method: 'POST', path: '/calendar-entries', scope: 'write:calendar_entries', section: 'Calendar entries',
    summary: 'Creates a calendar entry (published by default; the "Default" event type when none is given).',
    body: CalendarEntryCreateSchema, responseKind: 'single', response: CalendarEntrySchema, errors: [422], creates: true,
  }),
  'calendarEntries.update': endpoint({
    id: 'calendarEntries.update', method: 'PUT', path: '/calendar-entries/{id}', scope: 'write:calendar_entries', section: 'Calendar entries',
    summary: 'Changes the sent fields of a calendar entry (PUT and PATCH are equivalent).', body: CalendarEntryUpdateSchema,
    responseKind: 'single', response: CalendarEntrySchema, errors: [404, 422],
  }),
  'calendarEntries.patch': endpoint({
    id: 'calendarEntries.patch', method: 'PATCH', path: '/calendar-entries/{id}', scope: 'write:calendar_entries', section: 'Calendar entries',
    summary: 'Changes the sent fields of a calendar entry (PUT and PATCH are equivalent).', body: CalendarEntryUpdateSchema,
    responseKind: 'single', response: CalendarEntrySchema, errors: [404, 422],
  }),
  'calendarEntries.delete': endpoint({
    id: 'calendarEntries.delete', method: 'DELETE', path: '/calendar-entries/{id}', scope: 'write:calendar_entries', section: 'Calendar entries',
    summary: 'Deletes a calendar entry.', responseKind: 'empty', response: NoContentSchema, errors: [404],
  }),
};
