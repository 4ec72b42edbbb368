import 'reflect-metadata';
import { serveApp } from '@dl/platform/http';
import { createWorkerApp } from './app';

serveApp('worker', 'WORKER_PORT', createWorkerApp);
