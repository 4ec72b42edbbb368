import { describeAppBasics } from '@dl/testing';
import { createRedirectApp } from './app';

describeAppBasics('redirect app', createRedirectApp);
