import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { parse } from 'yaml';

/** What the media type's script asked Zabbix's HttpRequest to send. */
export interface ZabbixRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  proxy?: string;
}

/** The media type as docs/zabbix/media_intrabot.yaml exports it. */
export interface ZabbixMediaType {
  name: string;
  type: string;
  parameters: { name: string; value: string }[];
  script: string;
  message_templates: { event_source: string; operation_mode: string; subject: string; message: string }[];
}

export function zabbixMediaType(): { version: string; mediaType: ZabbixMediaType } {
  const exported = parse(readFileSync('docs/zabbix/media_intrabot.yaml', 'utf8')) as { zabbix_export: { version: string; media_types: ZabbixMediaType[] } };
  return { version: exported.zabbix_export.version, mediaType: exported.zabbix_export.media_types[0]! };
}

/**
 * Runs the media type's script as Zabbix does (its parameters as JSON in `value`, the body of a
 * function), with an HttpRequest that records each request and answers `answer`: what the script
 * returned or threw, and what it sent.
 */
export function runZabbixMediaType(
  params: Record<string, string>,
  answer: { status: number; body?: string } = { status: 202, body: '{"accepted":1,"queued":1}' },
): { returned?: unknown; thrown?: unknown; requests: ZabbixRequest[] } {
  const requests: ZabbixRequest[] = [];
  class HttpRequest {
    private readonly headers: Record<string, string> = {};
    private proxy: string | undefined;
    addHeader(line: string): void {
      const at = line.indexOf(':');
      this.headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
    }
    setProxy(proxy: string): void {
      this.proxy = proxy;
    }
    post(url: string, body: string): string {
      requests.push({ url, headers: { ...this.headers }, body, ...(this.proxy ? { proxy: this.proxy } : {}) });
      return answer.body ?? '';
    }
    getStatus(): number {
      return answer.status;
    }
  }
  const sandbox = { value: JSON.stringify(params), HttpRequest, Zabbix: { log: () => undefined } };
  try {
    return { returned: runInNewContext(`(function () {\n${zabbixMediaType().mediaType.script}\n})()`, sandbox), requests };
  } catch (thrown) {
    return { thrown, requests };
  }
}
