// spec: Walls, Posts, Comments, Media — the wall content endpoints.
import { PaginationQuerySchema, StatusListQuerySchema } from '../query';
import { WallSchema } from '../wall';
import { PostCreateSchema, PostSchema, PostUpdateSchema } from '../post';
import { CommentCreateSchema, CommentSchema, CommentUpdateSchema } from '../comment';
import { MediaSchema, MediaUploadSchema } from '../media';
import { NoContentSchema, endpoint } from './define';

export const wallEndpoints = {
  'walls.list': endpoint({
    id: 'walls.list', method: 'GET', path: '/walls', scope: 'read:walls', section: 'Walls',
    summary: 'Paginated list of walls.', query: PaginationQuerySchema, responseKind: 'list', response: WallSchema,
  }),
  'walls.get': endpoint({
    id: 'walls.get', method: 'GET', path: '/walls/{id}', scope: 'read:walls', section: 'Walls',
    summary: 'One wall.', responseKind: 'single', response: WallSchema, errors: [404],
  }),
};

export const postEndpoints = {
  'posts.list': endpoint({
    id: 'posts.list', method: 'GET', path: '/walls/{wall_id}/posts', scope: 'read:posts', section: 'Posts',
    summary: 'Paginated posts of a wall; published only unless `status` says otherwise.',
    query: StatusListQuerySchema, statusFilter: true, responseKind: 'list', response: PostSchema, errors: [404, 422],
  }),
  'posts.get': endpoint({
    id: 'posts.get', method: 'GET', path: '/walls/{wall_id}/posts/{id}', scope: 'read:posts', section: 'Posts',
    summary: 'One post; 404 for a post an employee scheduled for later.', responseKind: 'single', response: PostSchema, errors: [404],
  }),
  'posts.create': endpoint({
    id: 'posts.create', method: 'POST', path: '/walls/{wall_id}/posts', scope: 'write:posts', section: 'Posts',
    conditionalScopes: [{ scope: 'write:media', when: 'media_ids is sent', field: 'media_ids' }],
    summary: 'Creates a post, published immediately; fires post.created.', body: PostCreateSchema,
    responseKind: 'single', response: PostSchema, errors: [404, 422], creates: true,
  }),
  'posts.update': endpoint({
    id: 'posts.update', method: 'PUT', path: '/walls/{wall_id}/posts/{id}', scope: 'write:posts', section: 'Posts',
    summary: "Replaces a post's body.", body: PostUpdateSchema, responseKind: 'single', response: PostSchema, errors: [404, 422],
  }),
  'posts.delete': endpoint({
    id: 'posts.delete', method: 'DELETE', path: '/walls/{wall_id}/posts/{id}', scope: 'write:posts', section: 'Posts',
    summary: 'Deletes a post.', responseKind: 'empty', response: NoContentSchema, errors: [404],
  }),
};

export const commentEndpoints = {
  'comments.list': endpoint({
    id: 'comments.list', method: 'GET', path: '/posts/{post_id}/comments', scope: 'read:comments', section: 'Comments',
    summary: 'Paginated comments of a post.', query: PaginationQuerySchema, responseKind: 'list', response: CommentSchema, errors: [404],
  }),
  'comments.get': endpoint({
    id: 'comments.get', method: 'GET', path: '/posts/{post_id}/comments/{id}', scope: 'read:comments', section: 'Comments',
    summary: 'One comment.', responseKind: 'single', response: CommentSchema, errors: [404],
  }),
  'comments.create': endpoint({
    id: 'comments.create', method: 'POST', path: '/posts/{post_id}/comments', scope: 'write:comments', section: 'Comments',
    summary: 'Adds a comment; fires comment.created.', body: CommentCreateSchema, responseKind: 'single', response: CommentSchema,
    errors: [404, 422], creates: true,
  }),
  'comments.update': endpoint({
    id: 'comments.update', method: 'PUT', path: '/posts/{post_id}/comments/{id}', scope: 'write:comments', section: 'Comments',
    summary: 'Edits a comment: author only, within 30 minutes of creation (spec: Comment edit window).', body: CommentUpdateSchema,
    responseKind: 'single', response: CommentSchema, errors: [404, 422],
  }),
  'comments.delete': endpoint({
    id: 'comments.delete', method: 'DELETE', path: '/posts/{post_id}/comments/{id}', scope: 'write:comments', section: 'Comments',
    summary: 'Deletes a comment; fires comment.deleted.', responseKind: 'empty', response: NoContentSchema, errors: [404],
  }),
};

export const mediaEndpoints = {
  'media.upload': endpoint({
    id: 'media.upload', method: 'POST', path: '/media', scope: 'write:media', section: 'Media',
    summary: 'Uploads a file (multipart: `media`, `type`); pass the id in `media_ids` of a post.', body: MediaUploadSchema,
    multipart: true, responseKind: 'single', response: MediaSchema, errors: [422], creates: true,
  }),
  'media.get': endpoint({
    id: 'media.get', method: 'GET', path: '/media/{id}', scope: 'write:media', section: 'Media',
    summary: 'One uploaded media item.', responseKind: 'single', response: MediaSchema, errors: [404],
  }),
};
