// spec: Users, Groups, Bots, and the user/group writes of "Other endpoints that exist".
import { PaginationQuerySchema } from '../query';
import { UserCreateSchema, UserListQuerySchema, UserSchema } from '../user';
import { GroupCreateSchema, GroupListQuerySchema, GroupSchema } from '../group';
import { BotUserCreateSchema, BotUserSchema, BotUserUpdateSchema } from '../bot-user';
import { AvatarUploadSchema } from '../media';
import { NoContentSchema, endpoint } from './define';

const OTHER = 'Other endpoints that exist';

export const userEndpoints = {
  'users.list': endpoint({
    id: 'users.list', method: 'GET', path: '/users', scope: 'read:users', section: 'Users',
    summary: 'Paginated registered users; `group_id` filters to members of a group.', query: UserListQuerySchema,
    responseKind: 'list', response: UserSchema,
  }),
  'users.get': endpoint({
    id: 'users.get', method: 'GET', path: '/users/{id}', scope: 'read:users', section: 'Users',
    summary: 'One registered user.', responseKind: 'single', response: UserSchema, errors: [404],
  }),
  'users.create': endpoint({
    id: 'users.create', method: 'POST', path: '/users', scope: 'write:users', section: OTHER, shown: false,
    summary: 'Creates a user; 422 naming `email` when an active user holds it.', body: UserCreateSchema,
    responseKind: 'single', response: UserSchema, errors: [422], creates: true,
  }),
  'users.delete': endpoint({
    id: 'users.delete', method: 'DELETE', path: '/users/{id}', scope: 'write:users', section: OTHER, shown: false,
    summary: 'Deletes a user; 422 for a user synced from an external system.', responseKind: 'empty', response: NoContentSchema,
    errors: [404, 422],
  }),
  'users.avatar': endpoint({
    id: 'users.avatar', method: 'POST', path: '/users/{id}/avatar', scope: 'write:users', section: OTHER, shown: false,
    summary: "Sets a user's avatar (multipart field `media`); answers the User.", body: AvatarUploadSchema, multipart: true,
    responseKind: 'single', response: UserSchema, errors: [404, 422],
  }),
};

export const groupEndpoints = {
  'groups.list': endpoint({
    id: 'groups.list', method: 'GET', path: '/groups', scope: 'read:groups', section: 'Groups',
    summary: 'Paginated groups (system groups never); `type` filters.', query: GroupListQuerySchema,
    responseKind: 'list', response: GroupSchema, errors: [422],
  }),
  'groups.get': endpoint({
    id: 'groups.get', method: 'GET', path: '/groups/{id}', scope: 'read:groups', section: 'Groups',
    summary: 'One group.', responseKind: 'single', response: GroupSchema, errors: [404],
  }),
  'groups.create': endpoint({
    id: 'groups.create', method: 'POST', path: '/groups', scope: 'write:groups', section: OTHER, shown: false,
    summary: 'Creates a group (`type` defaults to department; `is_open` only on custom).', body: GroupCreateSchema,
    responseKind: 'single', response: GroupSchema, errors: [422], creates: true,
  }),
};

export const botEndpoints = {
  'bots.list': endpoint({
    id: 'bots.list', method: 'GET', path: '/bots', scope: 'read:bots', section: 'Bots',
    summary: 'Paginated bot users.', query: PaginationQuerySchema, responseKind: 'list', response: BotUserSchema,
  }),
  'bots.get': endpoint({
    id: 'bots.get', method: 'GET', path: '/bots/{id}', scope: 'read:bots', section: 'Bots',
    summary: 'One bot user.', responseKind: 'single', response: BotUserSchema, errors: [404],
  }),
  'bots.create': endpoint({
    id: 'bots.create', method: 'POST', path: '/bots', scope: 'write:bots', section: 'Bots',
    summary: 'Creates a bot user.', body: BotUserCreateSchema, responseKind: 'single', response: BotUserSchema, errors: [422], creates: true,
  }),
  'bots.update': endpoint({
    id: 'bots.update', method: 'PUT', path: '/bots/{id}', scope: 'write:bots', section: 'Bots',
    summary: "Changes a bot's name or avatar.", body: BotUserUpdateSchema, responseKind: 'single', response: BotUserSchema, errors: [404, 422],
  }),
};
