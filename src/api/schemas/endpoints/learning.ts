// spec: Other endpoints that exist — named with their scope only: paths and shapes are our choice (DESIGN.md).
import { PaginationQuerySchema } from '../query';
import { JourneySchema } from '../journey';
import { StaffCardSchema } from '../staff-card';
import { HandbookCreateSchema, HandbookSchema } from '../handbook';
import { CourseCreateSchema, CourseSchema } from '../course';
import { ArticleCreateSchema, ArticleSchema } from '../article';
import { endpoint } from './define';

const OTHER = 'Other endpoints that exist';
const page = PaginationQuerySchema;

export const learningEndpoints = {
  'journeys.list': endpoint({
    id: 'journeys.list', method: 'GET', path: '/journeys', scope: 'read:journeys', section: OTHER, shown: false,
    summary: 'Paginated journeys.', query: page, responseKind: 'list', response: JourneySchema,
  }),
  'staffCards.list': endpoint({
    id: 'staffCards.list', method: 'GET', path: '/staff-cards', scope: 'read:staff_cards', section: OTHER, shown: false,
    summary: 'Paginated staff cards.', query: page, responseKind: 'list', response: StaffCardSchema,
  }),
  'handbooks.list': endpoint({
    id: 'handbooks.list', method: 'GET', path: '/handbooks', scope: 'read:handbooks', section: OTHER, shown: false,
    summary: 'Paginated handbooks.', query: page, responseKind: 'list', response: HandbookSchema,
  }),
  'handbooks.create': endpoint({
    id: 'handbooks.create', method: 'POST', path: '/handbooks', scope: 'write:handbooks', section: OTHER, shown: false,
    summary: 'Creates a handbook.', body: HandbookCreateSchema, responseKind: 'single', response: HandbookSchema, errors: [422], creates: true,
  }),
  'courses.list': endpoint({
    id: 'courses.list', method: 'GET', path: '/courses', scope: 'read:courses', section: OTHER, shown: false,
    summary: 'Paginated courses.', query: page, responseKind: 'list', response: CourseSchema,
  }),
  'courses.create': endpoint({
    id: 'courses.create', method: 'POST', path: '/courses', scope: 'write:courses', section: OTHER, shown: false,
    summary: 'Creates a course.', body: CourseCreateSchema, responseKind: 'single', response: CourseSchema, errors: [422], creates: true,
  }),
  'articles.list': endpoint({
    id: 'articles.list', method: 'GET', path: '/articles', scope: 'read:articles', section: OTHER, shown: false,
    summary: 'Paginated standalone articles.', query: page, responseKind: 'list', response: ArticleSchema,
  }),
  'articles.get': endpoint({
    id: 'articles.get', method: 'GET', path: '/articles/{id}', scope: 'read:articles', section: OTHER, shown: false,
    summary: 'One article.', responseKind: 'single', response: ArticleSchema, errors: [404],
  }),
  'articles.create': endpoint({
    id: 'articles.create', method: 'POST', path: '/articles', scope: 'write:articles', section: OTHER, shown: false,
    summary: 'Creates a standalone article (usable as `article_id`).', body: ArticleCreateSchema,
    responseKind: 'single', response: ArticleSchema, errors: [422], creates: true,
  }),
};
