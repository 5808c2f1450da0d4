// The live stream of the sandbox (server-sent events): `change` whenever the platform's state changed
// (the page reads what it shows again), `clock` with the platform's time. EventSource reconnects by itself.
import { useEffect, useState } from 'preact/hooks';

export function useLive() {
  const [version, setVersion] = useState(0);
  const [status, setStatus] = useState('connecting');
  const [clock, setClock] = useState(undefined);

  useEffect(() => {
    const source = new EventSource('/_sandbox/playground/live');
    source.addEventListener('open', () => setStatus('live'));
    source.addEventListener('change', (event) => setVersion(JSON.parse(event.data).version));
    source.addEventListener('clock', (event) => {
      const { now, epoch_ms: epochMs } = JSON.parse(event.data);
      setClock({ iso: now, epochMs, at: Date.now() });
    });
    source.addEventListener('error', () => setStatus(source.readyState === EventSource.CLOSED ? 'offline' : 'reconnecting'));
    return () => source.close();
  }, []);

  return { version, status, clock };
}
