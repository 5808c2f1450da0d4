import { defineBot } from 'intrabot';

// The alert inputs in bot.yaml do the work: parse, dedupe, route, render (templates/alerts/*), send.
// A bot that wants to react to alerts in code can add handlers and jobs here as any bot does.
export default defineBot({});
