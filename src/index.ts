export type {
  Case,
  CatalogEntry,
  CompletionRequest,
  Json,
  Message,
  Metric,
  Model,
  ModelRequest,
  ModelSettings,
  Provider,
  ProviderResponse,
  Reply,
  Score,
  ToolCallMade,
  ToolChoice,
  ToolDefinition,
  Usage,
} from './api/types.ts';
export {
  MAX_STEPS,
  runAgent,
  type AgentOptions,
  type AgentReply,
  type AgentStep,
  type AgentTool,
  type StepStatus,
  type ToolRun,
  type ToolRunStatus,
} from './agent/run-agent.ts';
export {
  matchTrajectory,
  type ArgumentMode,
  type CallStatus,
  type CallVerdict,
  type MatchMode,
  type ToolCall,
  type TrajectoryVerdict,
} from './agent/core/trajectory.ts';
export { Adapter } from './api/adapter.ts';
export { Scorer, type ScorerTools } from './api/scorer.ts';
export { JudgeScorer, JudgeFailed, JudgeOffline, type JudgeScorerOptions } from './scorers/judge.ts';
export {
  readSchema,
  SchemaValidator,
  type CheckedField,
  type FieldSpec,
  type FieldType,
  type Schema,
} from './api/schema-validator.ts';
export {
  EchoAdapter,
  FakeModel,
  FakeProvider,
  FakeRepliesExhausted,
  type FakeAnswer,
  type FakeReply,
  type FakeScript,
} from './api/testing.ts';
export {
  FIELD_METRICS,
  FIELD_WORTH,
  FieldScorer,
  fieldOutcome,
  scoreFields,
  type FieldOutcome,
  type FieldScore,
  type FieldVerdict,
} from './scorers/field-scorer.ts';
export { TrajectoryScorer, type TrajectoryOptions } from './scorers/trajectory-scorer.ts';
export { defineSuite, type SuiteDefinition } from './suite/define.ts';
export type { Contender, Experiment } from './core/matrix.ts';
export type { Plan } from './core/plan.ts';
export { OpenRouterProvider } from './providers/openrouter.ts';
export { TypeSafeProvider } from './providers/typesafe.ts';
export type {
  CaseRecord,
  ExperimentInfo,
  Tracker,
  TrackerContext,
  TrackerDefinition,
  TrackerLog,
} from './trackers/types.ts';
