import { readFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';
import { ComputeHealthOptions, computeHealth } from '../src/health';
import { HealthAssessment, KubernetesObject } from '../src/types';

/** A custom resource of a well-known operator, from cr-corpus.yaml. */
export interface CorpusEntry {
  shape: string;
  standard: boolean;
  expected: string;
  object: KubernetesObject;
}

export interface CorpusResult {
  entry: CorpusEntry;
  actual: HealthAssessment | undefined;
  /** A status, not undefined and not the generic rule's "cannot tell". */
  assessed: boolean;
  /** Answered by a rule of its own kind (the corpus measures the generic rule). */
  ownRule: boolean;
  agrees: boolean;
}

export function loadCrCorpus(
  file = join(__dirname, 'cr-corpus.yaml'),
): CorpusEntry[] {
  return parse(readFileSync(file, 'utf8')).objects;
}

export function runCorpusEntry(
  entry: CorpusEntry,
  options?: ComputeHealthOptions,
): CorpusResult {
  const actual = computeHealth(entry.object, options);
  const assessed =
    actual !== undefined &&
    !(actual.origin === 'generic' && actual.status === 'Unknown');
  return {
    entry,
    actual,
    assessed,
    ownRule: actual !== undefined && actual.origin === undefined,
    agrees: actual?.status === entry.expected,
  };
}
