import { describeArgocdCases } from '../testing/argocdCases';

describeArgocdCases('argoproj.io/ApplicationSet');
