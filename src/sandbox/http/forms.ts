import type { FastifyRequest } from 'fastify';
import { validationError } from './sandbox-error';

/**
 * Multipart bodies (spec: Media — `media` file and `type`) arrive as a raw buffer (the parser is
 * registered in the API plugin) and are read with the platform-standard FormData parser.
 */
export async function readForm(request: FastifyRequest): Promise<FormData> {
  const contentType = request.headers['content-type'] ?? '';
  if (!Buffer.isBuffer(request.body) || !contentType.startsWith('multipart/form-data')) {
    throw validationError('media', 'the request must be multipart/form-data');
  }
  try {
    return await new Response(request.body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw validationError('media', 'the multipart body could not be read');
  }
}
