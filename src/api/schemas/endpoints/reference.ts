// spec: Other endpoints that exist — named with their scope only: paths and shapes are our choice (DESIGN.md).
import { PaginationQuerySchema } from '../query';
import { CertificateCreateSchema, CertificateSchema } from '../certificate';
import { CertificateTypeCreateSchema, CertificateTypeSchema } from '../certificate-type';
import { CalendarEventTypeCreateSchema, CalendarEventTypeSchema } from '../calendar-event-type';
import { LocalesSchema } from '../locale';
import { OrgChartNodeSchema } from '../org-chart';
import { ManagerHubSchema } from '../manager-hub';
import { endpoint } from './define';

const OTHER = 'Other endpoints that exist';
const page = PaginationQuerySchema;

export const referenceEndpoints = {
  'certificates.list': endpoint({
    id: 'certificates.list', method: 'GET', path: '/certificates', scope: 'read:certificates', section: OTHER, shown: false,
    summary: 'Paginated certificates.', query: page, responseKind: 'list', response: CertificateSchema,
  }),
  'certificates.create': endpoint({
    id: 'certificates.create', method: 'POST', path: '/certificates', scope: 'write:certificates', section: OTHER, shown: false,
    summary: 'Creates a certificate.', body: CertificateCreateSchema, responseKind: 'single', response: CertificateSchema,
    errors: [422], creates: true,
  }),
  'certificateTypes.list': endpoint({
    id: 'certificateTypes.list', method: 'GET', path: '/certificate-types', scope: 'read:certificatetypes', section: OTHER, shown: false,
    summary: 'Paginated certificate types.', query: page, responseKind: 'list', response: CertificateTypeSchema,
  }),
  'certificateTypes.create': endpoint({
    id: 'certificateTypes.create', method: 'POST', path: '/certificate-types', scope: 'write:certificatetypes', section: OTHER, shown: false,
    summary: 'Creates a certificate type.', body: CertificateTypeCreateSchema, responseKind: 'single', response: CertificateTypeSchema,
    errors: [422], creates: true,
  }),
  'calendarEventTypes.list': endpoint({
    id: 'calendarEventTypes.list', method: 'GET', path: '/calendar-event-types', scope: 'read:calendar_event_types', section: OTHER,
    shown: false, summary: 'Paginated calendar event types.', query: page, responseKind: 'list', response: CalendarEventTypeSchema,
  }),
  'calendarEventTypes.create': endpoint({
    id: 'calendarEventTypes.create', method: 'POST', path: '/calendar-event-types', scope: 'write:calendar_event_types', section: OTHER,
    shown: false, summary: 'Creates a calendar event type.', body: CalendarEventTypeCreateSchema,
    responseKind: 'single', response: CalendarEventTypeSchema, errors: [422], creates: true,
  }),
  'locales.get': endpoint({
    id: 'locales.get', method: 'GET', path: '/locales', scope: 'read:locales', section: OTHER, shown: false,
    summary: 'Active content languages (code to name) and the default one.', responseKind: 'single', response: LocalesSchema,
  }),
  'orgChart.get': endpoint({
    id: 'orgChart.get', method: 'GET', path: '/org-chart', scope: 'read:org_chart', section: OTHER, shown: false,
    summary: 'Paginated org chart nodes.', query: page, responseKind: 'list', response: OrgChartNodeSchema,
  }),
  'managerHub.get': endpoint({
    id: 'managerHub.get', method: 'GET', path: '/manager-hub', scope: 'read:managerhub', section: OTHER, shown: false,
    summary: "The manager hub overview of the token's user.", responseKind: 'single', response: ManagerHubSchema,
  }),
};
