import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import { type BodyInput, type Id, listing } from './types';

const e = {
  handbook: endpoints['handbooks.create'],
  course: endpoints['courses.create'],
  article: endpoints['articles.create'],
};

/** Journeys (read only). */
export function journeysResource(caller: Caller) {
  return listing(caller, endpoints['journeys.list']);
}

/** Handbooks: completable content an achievement can link. */
export function handbooksResource(caller: Caller) {
  return { ...listing(caller, endpoints['handbooks.list']), create: (body: BodyInput<typeof e.handbook>) => caller.call(e.handbook, { body }) };
}

/** Courses: completable content an achievement can link. */
export function coursesResource(caller: Caller) {
  return { ...listing(caller, endpoints['courses.list']), create: (body: BodyInput<typeof e.course>) => caller.call(e.course, { body }) };
}

/** Standalone articles, usable as `article_id` of announcements, events and calendar entries. */
export function articlesResource(caller: Caller) {
  return {
    ...listing(caller, endpoints['articles.list']),
    get: (id: Id) => caller.call(endpoints['articles.get'], { params: { id } }),
    create: (body: BodyInput<typeof e.article>) => caller.call(e.article, { body }),
  };
}
