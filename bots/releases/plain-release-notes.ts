import type { Middleware } from 'intrabot';
import { markdownToText } from 'intrabot/helpers';

/**
 * Renders the markdown of release notes as the platform's plain text (spec: Posts, `body` is text):
 * an alert input's message passes through its bot's middleware, where the message of a markdown
 * input is sent rendered in place of the original, which is not sent (`next()` is not called).
 * The alert pipeline has no hook of its own to transform a field (nor a template helper a bot can
 * add), so the whole rendered message is converted: the template's own text is plain and stays so.
 */
export const plainReleaseNotes: Middleware<{ markdown_inputs: string[] }> = async (input, ctx, next) => {
  if (input.kind !== 'alert' || !ctx.config.markdown_inputs.includes(input.alert.input)) return next();
  const { target, text, replyTo } = input.alert;
  const plain = markdownToText(text);
  await (replyTo !== undefined ? ctx.comment(replyTo, plain) : ctx.post(target, plain));
};
