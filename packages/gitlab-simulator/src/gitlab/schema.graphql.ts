/** The subset of GitLab's GraphQL schema the simulator serves (names and types as in GitLab 17.x). */
export const GITLAB_SCHEMA_SDL = /* GraphQL */ `
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
    externalK8sProxyUrl: String
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
    count: Int!
    nodes: [ClusterAgentAuthorizationUserAccess]
    pageInfo: PageInfo!
  }

  type ClusterAgentAuthorizationCiAccess {
    agent: ClusterAgent
    config: JSON
  }

  type ClusterAgentAuthorizationCiAccessConnection {
    count: Int!
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
    kubernetesNamespace: String
    fluxResourcePath: String
    clusterAgent: ClusterAgent
    deploymentsDisplayCount: String
    lastDeployment(status: DeploymentStatus!): Deployment
  }

  type EnvironmentConnection {
    count: Int!
    nodes: [Environment]
    edges: [EnvironmentEdge]
    pageInfo: PageInfo!
  }

  type EnvironmentEdge {
    cursor: String!
    node: Environment
  }

  type Deployment {
    id: ID!
    iid: ID
    status: DeploymentStatus
    ref: String
    sha: String
    tag: Boolean
    createdAt: Time
    updatedAt: Time
    finishedAt: Time
    webPath: String
  }

  type ClusterAgent {
    id: ID!
    name: String!
    webPath: String
    createdAt: Time
    updatedAt: Time
    project: Project
    connections: ConnectedAgentConnection
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
    count: Int!
    nodes: [ConnectedAgent]
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
