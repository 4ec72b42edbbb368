import 'reflect-metadata';
import { serveApp } from '@dl/platform/http';
import { createApiApp } from './app';

serveApp('api', 'API_PORT', createApiApp);
