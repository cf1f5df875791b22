import { createContext, useContext } from 'react';
import type { FerryStores } from './ferry-stores';

export const StoresContext = createContext<FerryStores | null>(null);

export function useFerryStores(): FerryStores {
  const stores = useContext(StoresContext);
  // Only a component rendered outside <App> gets here: a wiring mistake, not a runtime state.
  if (!stores) throw new Error('useFerryStores needs the StoresContext that <App> provides.');
  return stores;
}
