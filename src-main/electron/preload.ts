import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('ferry', {});
