export * from './types';
export type {
  CiExpressionError,
  CiOperator,
  CiToken,
  LexResult,
} from './lexer';
export { lexCiExpression, CI_EXPRESSION_MAX_TOKENS } from './lexer';
export type { CiExpressionNode, ParseResult } from './parser';
export { parseCiExpression } from './parser';
export type { CiValue, CiExpressionResult } from './evaluate';
export {
  evaluateCiExpression,
  evaluateCiExpressionValue,
  ciValuePresent,
} from './evaluate';
export * from './namespace';
export * from './environments';
export * from './wildcard';
export * from './patternLimits';
export type { Re2Pattern, Re2Compiled } from './re2';
export { compileRe2 } from './re2';
export * from './managedResources';
export * from './rules';
export * from './api';
export * from './staleNamespacesStream';
export * from './yamlError';
