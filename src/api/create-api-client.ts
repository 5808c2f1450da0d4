import { ApiClient, type ApiClientOptions } from './client';
import { createPostWithMedia, uploadMedia, type PostWithMediaInput, type UploadMediaInput } from './media';
import { createResources, type Resources } from './resources';

/** The client with every resource group attached, plus the file conveniences on media and posts. */
export type IntrabotApi = ApiClient &
  Omit<Resources, 'media' | 'posts'> & {
    media: Resources['media'] & { uploadFile(input: UploadMediaInput): ReturnType<typeof uploadMedia> };
    posts: Resources['posts'] & { createWithMedia(input: PostWithMediaInput): ReturnType<typeof createPostWithMedia> };
  };

/**
 * The typed API client: `call`/`paginate`/`request` of `ApiClient`, and a method for every
 * endpoint grouped by resource.
 *
 * @example
 * const api = createApiClient({ baseUrl: 'https://acme.example', token: process.env.INTRABOT_TOKEN!, clock });
 * const wall = await api.walls.get(3);
 * await api.posts.createWithMedia({ wallId: wall.id, body: 'Q3 report', media: [{ data: { path: 'q3.pdf' }, type: 'document' }] });
 * for await (const user of api.users.all({ since: cursor })) console.log(user.id);
 */
export function createApiClient(options: ApiClientOptions): IntrabotApi {
  const client = new ApiClient(options);
  const resources = createResources(client);
  return Object.assign(client, resources, {
    media: { ...resources.media, uploadFile: (input: UploadMediaInput) => uploadMedia(client, input) },
    posts: { ...resources.posts, createWithMedia: (input: PostWithMediaInput) => createPostWithMedia(client, input) },
  });
}
