import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Testing Library unmounts between tests on its own only when vitest runs with globals; it does not here.
afterEach(cleanup);
