import { describeArgocdCases } from '../testing/argocdCases';

describeArgocdCases('_.services.k8s.aws/_');
