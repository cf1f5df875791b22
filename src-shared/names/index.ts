export {
  COLLISION_NUMBERED_TRIES,
  COLLISION_RANDOM_TRIES,
  COLLISION_TOKEN_LENGTH,
  collisionCandidates,
  withCollisionSuffix,
} from './collision-suffix';
export {
  DEFAULT_FILE_NAME,
  NAME_COMPONENT_MAX_BYTES,
  NAME_PATH_MAX_BYTES,
  sanitizeRelativePath,
} from './sanitize-path';
export { splitExtension, type NameParts } from './split-extension';
