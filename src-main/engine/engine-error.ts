// The engine's failures are the session core's: one type on every surface.
export { SessionFailure as EngineError, toFailure } from '../../src-shared/session/session-failure';
