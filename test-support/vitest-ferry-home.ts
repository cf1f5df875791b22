import { afterAll } from 'vitest';
import { usePrivateFerryHome } from './private-ferry-home';

// vitest setup file of the node project: each test file's processes get their own FERRY_HOME.
afterAll(usePrivateFerryHome());
