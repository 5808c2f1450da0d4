// The live stream (server-sent events): each section's data as it changes, and the runtime's clock
// every second. EventSource reconnects by itself after a dropped connection; when the server refused
// the stream (signed out, restarted), the session is checked again before reopening it.
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.mjs';

export function useLive(enabled, onSignedOut) {
  const [sections, setSections] = useState({});
  const [status, setStatus] = useState('connecting');
  const [clock, setClock] = useState(undefined);

  useEffect(() => {
    if (!enabled) return undefined;
    let source;
    let retry;
    let stopped = false;
    const open = () => {
      source = new EventSource('api/stream');
      source.addEventListener('open', () => setStatus('live'));
      source.addEventListener('section', (event) => {
        const { section, data } = JSON.parse(event.data);
        setSections((current) => ({ ...current, [section]: data }));
      });
      source.addEventListener('clock', (event) => {
        const { now } = JSON.parse(event.data);
        setClock({ now, at: Date.now() });
      });
      source.addEventListener('signed-out', () => {
        source.close();
        onSignedOut();
      });
      source.addEventListener('error', () => {
        if (source.readyState !== EventSource.CLOSED) {
          setStatus('reconnecting');
          return;
        }
        setStatus('offline');
        retry = setTimeout(check, 3000);
      });
    };
    const check = async () => {
      if (stopped) return;
      try {
        const session = await api.session();
        if (session.off || (session.tokenRequired && !session.signedIn)) return onSignedOut();
      } catch {
        // the runtime is down: try again later
        retry = setTimeout(check, 3000);
        return undefined;
      }
      open();
      return undefined;
    };
    open();
    return () => {
      stopped = true;
      source?.close();
      clearTimeout(retry);
    };
  }, [enabled]);

  // the runtime's now, moved on by the time since it was last told
  const now = clock ? clock.now + (Date.now() - clock.at) : Date.now();
  return { sections, status, now };
}
