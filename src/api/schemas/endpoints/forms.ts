// spec: Other endpoints that exist — named with their scope only: paths and shapes are our choice (DESIGN.md).
import { PaginationQuerySchema } from '../query';
import { FormSchema } from '../form';
import { FormResponseSchema } from '../form-response';
import { endpoint } from './define';

const OTHER = 'Other endpoints that exist';
const page = PaginationQuerySchema;

export const formEndpoints = {
  'forms.list': endpoint({
    id: 'forms.list',
    method: 'GET',
    path: '/forms',
    scope: 'read:forms',
    section: OTHER,
    shown: false,
    summary: 'Paginated forms.',
    query: page,
    responseKind: 'list',
    response: FormSchema,
  }),
  'forms.get': endpoint({
    id: 'forms.get',
    method: 'GET',
    path: '/forms/{id}',
    scope: 'read:forms',
    section: OTHER,
    shown: false,
    summary: 'One form.',
    responseKind: 'single',
    response: FormSchema,
    errors: [404],
  }),
  'forms.responses': endpoint({
    id: 'forms.responses',
    method: 'GET',
    path: '/forms/{id}/responses',
    scope: 'read:formresponses',
    section: OTHER,
    shown: false,
    summary: 'Paginated responses of a form.',
    query: page,
    responseKind: 'list',
    response: FormResponseSchema,
    errors: [404],
  }),
  'formResponses.get': endpoint({
    id: 'formResponses.get',
    method: 'GET',
    path: '/form-responses/{id}',
    scope: 'read:formresponses',
    section: OTHER,
    shown: false,
    summary: 'One form response.',
    responseKind: 'single',
    response: FormResponseSchema,
    errors: [404],
  }),
};
