import 'reflect-metadata';
import { serveApp } from '@dl/platform/http';
import { createRedirectApp } from './app';

serveApp('redirect', 'REDIRECT_PORT', createRedirectApp);
