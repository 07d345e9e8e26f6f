/* eslint-disable no-console */
// Health figures: how many of Argo CD's own test cases the engine answers
// with Argo CD's status and message, per Argo CD directory (the cases kept
// next to each rule, src/health/**/*.cases.yaml); how many custom
// resources of well-known operators the generic rule gives a status to
// (bench/cr-corpus.yaml); and what an adopter's Lua rule costs against a
// built-in one on the same objects (a ratio measured in the same run).
import {
  agreementBySource,
  loadArgocdCases,
  runArgocdCase,
} from '../src/health/__testUtils__/argocdCases';
import { readFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';
import {
  createHealthRuleSet,
  parseDeclarativeHealthRules,
} from '../src/health';
import { loadCrCorpus, runCorpusEntry } from './crCorpus';
import { compareLuaWithBuiltin } from './luaVsBuiltin';

const percent = (part: number, whole: number) =>
  whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`;

const results = loadArgocdCases().map(runArgocdCase);
console.log(
  "Argo CD's own health test cases (the *.cases.yaml next to each rule):",
);
console.table(
  agreementBySource(results).map(row => ({
    source: row.source.replace('resource_customizations/', ''),
    cases: row.cases,
    'ArgoCD status': `${row.statusAgrees} (${percent(
      row.statusAgrees,
      row.cases,
    )})`,
    'ArgoCD message': `${row.messageAgrees} (${percent(
      row.messageAgrees,
      row.cases,
    )})`,
  })),
);
for (const r of results.filter(x => !x.statusAgrees || !x.messageAgrees)) {
  console.log(
    `  differs: ${r.case.source}/${r.case.input}: ArgoCD ${
      r.case.status
    } ${JSON.stringify(r.case.message)}, engine ${
      r.actual?.status
    } ${JSON.stringify(r.actual?.message ?? '')}`,
  );
}

const corpus = loadCrCorpus().map(entry => runCorpusEntry(entry));
// The same corpus with the declarative rules of examples/health-rules: what
// an adopter gets for the kinds the generic rule leaves Unknown.
const exampleRules = createHealthRuleSet(
  parseDeclarativeHealthRules(
    parse(
      readFileSync(
        join(
          __dirname,
          '../../../examples/health-rules/app-config.health-rules.yaml',
        ),
        'utf8',
      ),
    ).gitlabEnv.health.rules,
  ),
);
const withExamples = loadCrCorpus().map(entry =>
  runCorpusEntry(entry, { rules: exampleRules }),
);
const standard = corpus.filter(r => r.entry.standard);
const count = (
  list: typeof corpus,
  test: (r: (typeof corpus)[number]) => boolean,
) => list.filter(test).length;
console.log(
  '\nCustom resources of well-known operators, mostly without a rule of their own (bench/cr-corpus.yaml):',
);
console.table(
  [
    ['with standard conditions or phase', standard],
    ['all in the corpus', corpus],
    ['all, with the example app-config rules', withExamples],
  ].map(([label, list]) => {
    const rows = list as typeof corpus;
    const assessed = count(rows, r => r.assessed);
    const agrees = count(rows, r => r.assessed && r.agrees);
    const wrongHealthy = count(
      rows,
      r => r.actual?.status === 'Healthy' && r.entry.expected !== 'Healthy',
    );
    return {
      corpus: label as string,
      objects: rows.length,
      'given a status': `${assessed} (${percent(assessed, rows.length)})`,
      'status as the object says': `${agrees} (${percent(
        agrees,
        assessed,
      )} of those)`,
      'Healthy shown wrongly': wrongHealthy,
    };
  }),
);
for (const r of corpus.filter(x => !x.assessed || !x.agrees)) {
  console.log(
    `  ${r.assessed ? 'differs' : 'no status'}: ${r.entry.object.apiVersion} ${
      r.entry.object.kind
    } (${r.entry.shape}): expected ${r.entry.expected}, engine ${
      r.actual?.status ?? 'none'
    }${r.ownRule ? " (now by a rule of its own: Argo CD's answer)" : ''}`,
  );
}

compareLuaWithBuiltin().catch(error => {
  console.error(error);
  process.exitCode = 1;
});
