export { unlessCancelled } from '../../src-shared/session/session-failure';
