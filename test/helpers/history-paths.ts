/**
 * The paths through the workflows that recorded histories must cover, each told by what its history holds. The
 * replay test asserts a committed fixture for every path; dev/record-histories.ts picks the fixtures with the same
 * rules, so the two cannot drift apart.
 */

/** A history in the proto JSON form the Temporal CLI and `historyToJSON` write. */
export interface HistoryJson {
  events: Record<string, unknown>[];
}

type Event = Record<string, unknown>;

/** The value at a path of keys in parsed JSON, or undefined. */
function at(value: unknown, ...path: string[]): unknown {
  for (const key of path) value = value && typeof value === 'object' ? (value as Event)[key] : undefined;
  return value;
}

const ofType = (h: HistoryJson, type: string) => h.events.filter((e) => e.eventType === `EVENT_TYPE_${type}`);

/** The workflow type a history runs. */
export function workflowType(h: HistoryJson): string | undefined {
  const started = ofType(h, 'WORKFLOW_EXECUTION_STARTED')[0];
  const name = at(started, 'workflowExecutionStartedEventAttributes', 'workflowType', 'name');
  return typeof name === 'string' ? name : undefined;
}

const updates = (h: HistoryJson, name: string) =>
  ofType(h, 'WORKFLOW_EXECUTION_UPDATE_ACCEPTED').filter(
    (e) =>
      at(e, 'workflowExecutionUpdateAcceptedEventAttributes', 'acceptedRequest', 'input', 'name') === name,
  ).length;
const signals = (h: HistoryJson, name: string) =>
  ofType(h, 'WORKFLOW_EXECUTION_SIGNALED').filter(
    (e) => at(e, 'workflowExecutionSignaledEventAttributes', 'signalName') === name,
  ).length;
/** The decoded first argument of each accepted update `name` (JSON payloads, as the SDK writes them). */
const updateArgs = (h: HistoryJson, name: string): unknown[] =>
  ofType(h, 'WORKFLOW_EXECUTION_UPDATE_ACCEPTED').flatMap((e) => {
    const input = at(e, 'workflowExecutionUpdateAcceptedEventAttributes', 'acceptedRequest', 'input');
    const data = at(input, 'args', 'payloads', '0', 'data');
    if (at(input, 'name') !== name || typeof data !== 'string') return [];
    try {
      return [JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as unknown];
    } catch {
      return [];
    }
  });
/** Activities of `type` that ran again after an attempt Temporal gave up on (a heartbeat or start-to-close time-out). */
const givenUp = (h: HistoryJson, type: string) => {
  const scheduled = new Map(
    ofType(h, 'ACTIVITY_TASK_SCHEDULED').map((e) => [
      at(e, 'eventId'),
      at(e, 'activityTaskScheduledEventAttributes', 'activityType', 'name'),
    ]),
  );
  return ofType(h, 'ACTIVITY_TASK_STARTED').filter((e) => {
    const started = at(e, 'activityTaskStartedEventAttributes');
    return (
      scheduled.get(at(started, 'scheduledEventId')) === type &&
      Number(at(started, 'attempt') ?? 1) > 1 &&
      at(started, 'lastFailure', 'timeoutFailureInfo') !== undefined
    );
  }).length;
};
const activities = (h: HistoryJson, type: string) =>
  ofType(h, 'ACTIVITY_TASK_SCHEDULED').filter(
    (e) => at(e, 'activityTaskScheduledEventAttributes', 'activityType', 'name') === type,
  ).length;
const resultText = (h: HistoryJson) =>
  ofType(h, 'WORKFLOW_EXECUTION_COMPLETED')
    .flatMap((e) => {
      const payloads = at(e, 'workflowExecutionCompletedEventAttributes', 'result', 'payloads');
      return Array.isArray(payloads) ? (payloads as unknown[]) : [];
    })
    .map((p) => {
      const data = at(p, 'data');
      return typeof data === 'string' ? Buffer.from(data, 'base64').toString('utf8') : '';
    })
    .join('\n');

/** The workflow's first argument as the started event holds it (JSON), or undefined. */
const inputOf = (h: HistoryJson): Record<string, unknown> | undefined => {
  const started = ofType(h, 'WORKFLOW_EXECUTION_STARTED')[0];
  const data = at(started, 'workflowExecutionStartedEventAttributes', 'input', 'payloads', '0', 'data');
  if (typeof data !== 'string') return undefined;
  return JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as Record<string, unknown>;
};

/** One path: its name (the fixture's file name) and the rule that tells a history on it. */
export interface HistoryPath {
  name: string;
  what: string;
  matches(h: HistoryJson): boolean;
}

export const HISTORY_PATHS: HistoryPath[] = [
  {
    name: 'run-completed',
    what: 'a compare run that starts its experiments and completes',
    matches: (h) => workflowType(h) === 'compareRun' && ofType(h, 'WORKFLOW_EXECUTION_COMPLETED').length > 0,
  },
  {
    name: 'run-planned',
    what: "a compare run whose cases are in the plan store, its input carrying the plan's reference",
    matches: (h) =>
      workflowType(h) === 'compareRun' &&
      inputOf(h)?.plan !== undefined &&
      ofType(h, 'WORKFLOW_EXECUTION_COMPLETED').length > 0,
  },
  {
    name: 'experiment-planned',
    what: 'an experiment leasing its cases by index in the plan, its pool trading them by exchange',
    matches: (h) =>
      workflowType(h) === 'experiment' && inputOf(h)?.plan !== undefined && updates(h, 'exchange') >= 2,
  },
  {
    name: 'gate',
    what: "a run's gate: slots, outcomes, the finish",
    matches: (h) => workflowType(h) === 'runGate' && signals(h, 'finish') > 0,
  },
  {
    name: 'experiment-exchange',
    what: 'an experiment whose pool trades finished cases for new ones by exchange',
    matches: (h) => workflowType(h) === 'experiment' && updates(h, 'exchange') >= 2,
  },
  {
    name: 'experiment-retry',
    what: 'an experiment with a case retried as a runCase activity that reports by the retry update',
    matches: (h) =>
      workflowType(h) === 'experiment' && activities(h, 'runCase') > 0 && updates(h, 'retry') > 0,
  },
  {
    name: 'experiment-retry-given-up',
    what: 'a retried case whose attempt Temporal gave up on (the server or the worker away), run again',
    matches: (h) => workflowType(h) === 'experiment' && givenUp(h, 'runCase') > 0,
  },
  {
    name: 'experiment-pool-handover',
    what: 'a pool whose attempt Temporal gave up on, taken over by its next attempt',
    matches: (h) => workflowType(h) === 'experiment' && givenUp(h, 'runCases') > 0,
  },
  {
    name: 'experiment-continued',
    what: 'an experiment that continues as new when its history grows',
    matches: (h) =>
      workflowType(h) === 'experiment' && ofType(h, 'WORKFLOW_EXECUTION_CONTINUED_AS_NEW').length > 0,
  },
  {
    name: 'run-continued',
    what: 'a compare run that continues as new when its history grows',
    matches: (h) =>
      workflowType(h) === 'compareRun' && ofType(h, 'WORKFLOW_EXECUTION_CONTINUED_AS_NEW').length > 0,
  },
  {
    name: 'gate-cannot-call',
    what: 'a gate told by a worker that it cannot call a contender (no key, no such provider), then finished',
    matches: (h) => workflowType(h) === 'runGate' && signals(h, 'cannotCall') > 0 && signals(h, 'finish') > 0,
  },
  {
    name: 'gate-scorer-paused',
    what: 'a gate told of replies the scorer threw on, which paused the run',
    matches: (h) =>
      workflowType(h) === 'runGate' &&
      updateArgs(h, 'outcomes').some(
        (outcomes) => Array.isArray(outcomes) && outcomes.some((o) => at(o, 'scorer') === true),
      ),
  },
  {
    name: 'gate-paused-answered',
    what: 'a gate that paused the run and was answered',
    matches: (h) => workflowType(h) === 'runGate' && signals(h, 'answerPause') > 0,
  },
  {
    name: 'run-cancelled',
    what: 'a compare run cancelled while its experiments ran',
    matches: (h) =>
      workflowType(h) === 'compareRun' && ofType(h, 'WORKFLOW_EXECUTION_CANCEL_REQUESTED').length > 0,
  },
  {
    name: 'run-cancelled-served',
    what: 'a compare run cancelled while a worker served it, closed once its experiments closed',
    matches: (h) => workflowType(h) === 'compareRun' && ofType(h, 'WORKFLOW_EXECUTION_CANCELED').length > 0,
  },
  {
    name: 'experiment-cancelled',
    what: 'an experiment cancelled while its pool ran: the pool reports its calls in flight, then is cancelled',
    matches: (h) =>
      workflowType(h) === 'experiment' &&
      ofType(h, 'ACTIVITY_TASK_CANCELED').length > 0 &&
      ofType(h, 'WORKFLOW_EXECUTION_CANCELED').length > 0,
  },
  {
    name: 'experiment-cancelled-retrying',
    what: "an experiment cancelled during a retried case's call, closed once the retry reported",
    matches: (h) =>
      workflowType(h) === 'experiment' &&
      activities(h, 'runCase') > 0 &&
      ofType(h, 'WORKFLOW_EXECUTION_CANCELED').length > 0,
  },
  {
    name: 'scheduled-fire',
    what: 'a schedule firing: planning on a worker, then the gate and the run as children',
    matches: (h) =>
      workflowType(h) === 'scheduledRun' && ofType(h, 'WORKFLOW_EXECUTION_COMPLETED').length > 0,
  },
  {
    name: 'experiment-batch',
    what: 'a --batch experiment: its rounds submit, wait on a timer, read the replies, then its pool runs',
    matches: (h) =>
      workflowType(h) === 'experiment' &&
      activities(h, 'submitBatch') > 1 &&
      activities(h, 'receiveBatch') > 0 &&
      ofType(h, 'WORKFLOW_EXECUTION_COMPLETED').length > 0,
  },
  {
    name: 'experiment-batch-cancelled',
    what: 'a --batch experiment cancelled while it waits: it cancels its batch at the provider',
    matches: (h) => workflowType(h) === 'experiment' && activities(h, 'cancelBatch') > 0,
  },
  {
    name: 'experiment-batch-waited-for-a-worker',
    what:
      'a --batch experiment whose submit Temporal gave up on, every attempt on a worker that cannot reach the ' +
      "Batch API, scheduled again (patch 'batch-waits-for-a-worker') and then served",
    matches: (h) =>
      workflowType(h) === 'experiment' &&
      ofType(h, 'ACTIVITY_TASK_FAILED').some(
        (e) =>
          at(e, 'activityTaskFailedEventAttributes', 'failure', 'applicationFailureInfo', 'type') ===
          'BatchCannotServe',
      ) &&
      activities(h, 'receiveBatch') > 0 &&
      ofType(h, 'WORKFLOW_EXECUTION_COMPLETED').length > 0,
  },
  {
    name: 'run-regressed',
    what: 'a scheduled run judged against the previous one and found regressed',
    matches: (h) => workflowType(h) === 'compareRun' && resultText(h).includes('"regressed"'),
  },
];
