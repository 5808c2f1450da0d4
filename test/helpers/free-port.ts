// bot authors get it from intrabot/testing; the framework's own tests share the one definition
export { freePort } from '../../src/testing/free-port';
