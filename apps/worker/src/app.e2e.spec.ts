import { describeAppBasics } from '@dl/testing';
import { createWorkerApp } from './app';

describeAppBasics('worker app', createWorkerApp);
