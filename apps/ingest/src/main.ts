import 'reflect-metadata';
import { serveApp } from '@dl/platform/http';
import { createIngestApp } from './app';

serveApp('ingest', 'INGEST_PORT', createIngestApp);
