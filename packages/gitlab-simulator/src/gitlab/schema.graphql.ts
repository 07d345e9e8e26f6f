import { atLeast } from '../scenario/version';

/**
 * The subset of GitLab's GraphQL schema the simulator serves, names, types and
 * nullability as in GitLab's GraphQL reference (`doc/api/graphql/reference/_index.md`).
 * Fields younger than some supported version carry a `# since X.Y` marker and
 * are left out of the schema of an older scenario `instance.version`, so a
 * query GitLab would refuse fails validation here too.
 */
/** The statuses CiJobStatus and PipelineStatusEnum share (Ci::HasStatus). */
const CI_STATUSES = [
  'CREATED',
  'WAITING_FOR_RESOURCE',
  'PREPARING',
  'WAITING_FOR_CALLBACK',
  'PENDING',
  'RUNNING',
  'SUCCESS',
  'FAILED',
  'CANCELING',
  'CANCELED',
  'SKIPPED',
  'MANUAL',
  'SCHEDULED',
].join('\n    ');

const FULL_SCHEMA_SDL = /* GraphQL */ `
  scalar Time
  scalar JSON
  scalar BigInt

  enum DeploymentTier {
    PRODUCTION
    STAGING
    TESTING
    DEVELOPMENT
    OTHER
  }

  enum DeploymentStatus {
    CREATED
    RUNNING
    SUCCESS
    FAILED
    CANCELED
    SKIPPED
    BLOCKED
  }

  enum SortDirectionEnum {
    ASC
    DESC
  }

  input DeploymentsOrderByInput {
    createdAt: SortDirectionEnum
    finishedAt: SortDirectionEnum
  }

  enum CiJobStatus {
    ${CI_STATUSES}
  }

  enum PipelineStatusEnum {
    ${CI_STATUSES}
  }

  enum CiJobKind {
    BUILD
    BRIDGE
  }

  scalar JobID
  scalar CiProcessableID

  type Mutation {
    jobRetry(input: JobRetryInput!): JobRetryPayload
  }

  input CiVariableInput {
    key: String!
    value: String!
  }

  input JobRetryInput {
    clientMutationId: String
    id: CiProcessableID!
    variables: [CiVariableInput!]
  }

  type JobRetryPayload {
    clientMutationId: String
    errors: [String!]!
    job: CiJob
  }

  type Query {
    project(fullPath: ID!): Project
    projects(
      ids: [ID!]
      fullPaths: [String!]
      search: String
      membership: Boolean
      first: Int
      after: String
      last: Int
      before: String
    ): ProjectConnection
    group(fullPath: ID!): Group
    metadata: Metadata
    currentUser: CurrentUser
  }

  type PageInfo {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }

  type CurrentUser {
    id: ID!
    username: String!
    name: String!
    webUrl: String!
  }

  type Metadata {
    version: String!
    revision: String!
    enterprise: Boolean!
    kas: Kas!
  }

  type Kas {
    enabled: Boolean!
    externalUrl: String
    externalK8sProxyUrl: String # since 17.6 (doc/api/metadata.md, MR !172373)
    version: String
  }

  type Group {
    id: ID!
    fullPath: ID!
    name: String!
    webUrl: String!
    visibility: String
    projects(
      includeSubgroups: Boolean
      includeArchived: Boolean
      search: String
      first: Int
      after: String
      last: Int
      before: String
    ): ProjectConnection!
  }

  type Project {
    id: ID!
    fullPath: ID!
    path: String!
    name: String!
    nameWithNamespace: String!
    description: String
    webUrl: String
    visibility: String
    archived: Boolean
    group: Group
    environment(
      name: String
      search: String
      states: [String!]
      type: String
    ): Environment
    environments(
      name: String
      search: String
      states: [String!]
      type: String
      first: Int
      after: String
      last: Int
      before: String
    ): EnvironmentConnection
    clusterAgent(name: String!): ClusterAgent
    clusterAgents(
      first: Int
      after: String
      last: Int
      before: String
    ): ClusterAgentConnection
    userAccessAuthorizedAgents(
      first: Int
      after: String
      last: Int
      before: String
    ): ClusterAgentAuthorizationUserAccessConnection
    ciAccessAuthorizedAgents(
      first: Int
      after: String
      last: Int
      before: String
    ): ClusterAgentAuthorizationCiAccessConnection
  }

  type ClusterAgentAuthorizationUserAccess {
    agent: ClusterAgent
    config: JSON
  }

  type ClusterAgentAuthorizationUserAccessConnection {
    nodes: [ClusterAgentAuthorizationUserAccess]
    pageInfo: PageInfo!
  }

  type ClusterAgentAuthorizationCiAccess {
    agent: ClusterAgent
    config: JSON
  }

  type ClusterAgentAuthorizationCiAccessConnection {
    nodes: [ClusterAgentAuthorizationCiAccess]
    pageInfo: PageInfo!
  }

  type ProjectConnection {
    count: Int!
    nodes: [Project]
    edges: [ProjectEdge]
    pageInfo: PageInfo!
  }

  type ProjectEdge {
    cursor: String!
    node: Project
  }

  type Environment {
    id: ID!
    name: String!
    slug: String
    tier: DeploymentTier
    state: String!
    environmentType: String
    externalUrl: String
    path: String!
    description: String
    createdAt: Time
    updatedAt: Time
    autoStopAt: Time
    autoDeleteAt: Time
    kubernetesNamespace: String # since 16.3 (doc/ci/environments/kubernetes_dashboard.md)
    fluxResourcePath: String # since 16.4 (doc/ci/environments/kubernetes_dashboard.md)
    clusterAgent: ClusterAgent # since 16.2 (doc/ci/environments/kubernetes_dashboard.md)
    deploymentsDisplayCount: String
    lastDeployment(status: DeploymentStatus!): Deployment
    deployments(
      statuses: [DeploymentStatus!]
      orderBy: DeploymentsOrderByInput
      first: Int
      after: String
      last: Int
      before: String
    ): DeploymentConnection
  }

  type DeploymentConnection {
    nodes: [Deployment]
    edges: [DeploymentEdge]
    pageInfo: PageInfo!
  }

  type DeploymentEdge {
    cursor: String!
    node: Deployment
  }

  type UserCore {
    id: ID!
    username: String!
    name: String!
    avatarUrl: String
    webUrl: String!
    webPath: String!
  }

  type Commit {
    id: ID!
    sha: String!
    shortId: String!
    title: String
    fullTitle: String
    message: String
    description: String
    authorName: String
    authorEmail: String
    authorGravatar: String
    authoredDate: Time
    committedDate: Time
    webUrl: String!
    webPath: String!
    author: UserCore
  }

  type CiStage {
    id: ID!
    name: String
  }

  interface PipelineInterface {
    id: ID!
    iid: String!
    path: String
    status: PipelineStatusEnum!
  }

  type Pipeline implements PipelineInterface {
    id: ID!
    iid: String!
    path: String
    status: PipelineStatusEnum!
    sha: String
    ref: String
    createdAt: Time!
    updatedAt: Time!
    finishedAt: Time
    user: UserCore
  }

  type CiJob {
    id: JobID
    name: String
    status: CiJobStatus
    stage: CiStage
    kind: CiJobKind!
    allowFailure: Boolean!
    active: Boolean!
    cancelable: Boolean!
    playable: Boolean!
    playPath: String
    retryable: Boolean!
    retried: Boolean
    retryPath: String # since 18.4 (MR !199602; UNCONFIRMED milestone, its neighbour !199633 shipped in 18.4)
    webPath: String
    refName: String
    refPath: String
    shortSha: String!
    createdByTag: Boolean!
    createdAt: Time!
    startedAt: Time
    finishedAt: Time
    duration: Int
    pipeline: PipelineInterface
  }

  type EnvironmentConnection {
    nodes: [Environment]
    edges: [EnvironmentEdge]
    pageInfo: PageInfo!
  }

  type EnvironmentEdge {
    cursor: String!
    node: Environment
  }

  type Deployment {
    id: ID
    iid: String
    status: DeploymentStatus
    ref: String
    sha: String
    tag: Boolean
    createdAt: Time
    updatedAt: Time
    finishedAt: Time
    webPath: String
    refPath: String
    commit: Commit
    job: CiJob
    triggerer: UserCore
  }

  type ClusterAgent {
    id: ID!
    name: String
    webPath: String
    createdAt: Time
    updatedAt: Time
    project: Project
    # A connection like any other: the four standard pagination arguments
    # (doc/api/graphql/reference, ClusterAgent.connections).
    connections(
      first: Int
      after: String
      last: Int
      before: String
    ): ConnectedAgentConnection
    tokens(
      first: Int
      after: String
      last: Int
      before: String
    ): ClusterAgentTokenConnection
  }

  type ClusterAgentTokenConnection {
    nodes: [ClusterAgentToken]
    pageInfo: PageInfo!
  }

  enum AgentTokenStatus {
    ACTIVE
    REVOKED
  }

  type ClusterAgentToken {
    id: ID!
    name: String
    status: AgentTokenStatus
    createdAt: Time
    lastUsedAt: Time
  }

  type ClusterAgentConnection {
    count: Int!
    nodes: [ClusterAgent]
    edges: [ClusterAgentEdge]
    pageInfo: PageInfo!
  }

  type ClusterAgentEdge {
    cursor: String!
    node: ClusterAgent
  }

  type ConnectedAgentConnection {
    nodes: [ConnectedAgent]
    pageInfo: PageInfo!
  }

  type ConnectedAgent {
    connectedAt: Time
    connectionId: BigInt
    metadata: AgentMetadata
  }

  type AgentMetadata {
    version: String
    commit: String
    podName: String
    podNamespace: String
  }
`;

const SINCE = /#\s*since (\d+\.\d+)/;

/** The schema a GitLab of `version` serves: fields marked `# since X.Y` only from X.Y on. */
export function gitlabSchemaSdl(version: string): string {
  return FULL_SCHEMA_SDL.split('\n')
    .filter(line => {
      const since = line.match(SINCE)?.[1];
      return !since || atLeast(version, since);
    })
    .map(line => line.replace(/\s*#.*$/, ''))
    .join('\n');
}
