import { describeAppBasics } from '@dl/testing';
import { createIngestApp } from './app';

describeAppBasics('ingest app', createIngestApp);
