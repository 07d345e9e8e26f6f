import { computeHealth } from '../computeHealth';
import { condition, manifest } from '../__testUtils__/objects';

const argo = (kind: string, status?: object) =>
  manifest('argoproj.io/v1alpha1', kind, {}, status);

describe('AnalysisRun', () => {
  it.each([
    [
      undefined,
      'Progressing',
      'Waiting for analysis run to finish: status has not been reconciled.',
    ],
    [{ phase: 'Pending' }, 'Progressing', 'Analysis run is running'],
    [{ phase: 'Running' }, 'Progressing', 'Analysis run is running'],
    [{ phase: 'Successful' }, 'Healthy', 'Analysis run completed successfully'],
    [{ phase: 'Failed' }, 'Degraded', 'Analysis run failed'],
    [
      {
        phase: 'Failed',
        message:
          'Metric "success-rate" assessed Failed due to failed (1) > failureLimit (0)',
      },
      'Degraded',
      'Metric "success-rate" assessed Failed due to failed (1) > failureLimit (0)',
    ],
    [{ phase: 'Error' }, 'Degraded', 'Analysis run had an error'],
    [{ phase: 'Inconclusive' }, 'Unknown', 'Analysis run was inconclusive'],
  ])('%j is %s', (status, expected, message) => {
    expect(computeHealth(argo('AnalysisRun', status))).toEqual({
      status: expected,
      message,
    });
  });
});

describe('Experiment', () => {
  it.each([
    [
      undefined,
      'Progressing',
      'Waiting for experiment to finish: status has not been reconciled.',
    ],
    [{ phase: 'Pending' }, 'Progressing', 'Experiment is pending'],
    [{ phase: 'Running' }, 'Progressing', 'Experiment is running'],
    [{ phase: 'Successful' }, 'Healthy', 'Experiment is successful'],
    [{ phase: 'Failed' }, 'Degraded', 'Experiment has failed'],
    [{ phase: 'Error' }, 'Degraded', 'Experiment had an error'],
  ])('%j is %s', (status, expected, message) => {
    expect(computeHealth(argo('Experiment', status))).toEqual({
      status: expected,
      message,
    });
  });
});

describe('Workflow', () => {
  it.each([
    [{ phase: 'Running', message: '' }, { status: 'Progressing' }],
    [{}, { status: 'Progressing' }],
    [{ phase: 'Succeeded' }, { status: 'Healthy' }],
    [
      { phase: 'Failed', message: "child 'etl-2818' failed" },
      { status: 'Degraded', message: "child 'etl-2818' failed" },
    ],
    [
      { phase: 'Error', message: 'OOMKilled' },
      { status: 'Degraded', message: 'OOMKilled' },
    ],
    [{ phase: 'Skipped' }, { status: 'Unknown' }],
  ])('%j', (status, expected) => {
    expect(computeHealth(argo('Workflow', status))).toEqual(expected);
  });
});

describe('CronWorkflow', () => {
  it('is healthy by default', () => {
    expect(computeHealth(argo('CronWorkflow', { active: [] }))).toEqual({
      status: 'Healthy',
      message: 'CronWorkflow is healthy.',
    });
  });
  it('is degraded by a spec or submission error', () => {
    expect(
      computeHealth(
        argo('CronWorkflow', {
          conditions: [
            condition(
              'SubmissionError',
              'True',
              undefined,
              'Failed to submit Workflow: workflowtemplates "etl" not found',
            ),
          ],
        }),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'Failed to submit Workflow: workflowtemplates "etl" not found',
    });
  });
  it('is healthy once completed', () => {
    expect(
      computeHealth(
        argo('CronWorkflow', {
          conditions: [
            condition('Completed', 'True', undefined, 'Stop condition reached'),
          ],
        }),
      ),
    ).toEqual({ status: 'Healthy', message: 'Stop condition reached' });
  });
});
