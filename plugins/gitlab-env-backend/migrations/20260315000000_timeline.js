// @ts-check

/**
 * The timeline each GitLab environment keeps (see the README's "Timeline").
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('gitlab_env_timeline', table => {
    table.comment('What happened to each GitLab environment, newest read first');
    table.bigIncrements('id').primary();
    table
      .string('environment_key', 255)
      .notNullable()
      .comment('<instance host>|<GitLab environment id>');
    table
      .string('entry_key', 255)
      .notNullable()
      .comment('The fact, the same whichever replica recorded it');
    table.string('kind', 16).notNullable();
    table
      .bigInteger('occurred_at')
      .notNullable()
      .comment('When it happened, milliseconds since the epoch');
    table.string('environment_slug', 255).notNullable();
    table.text('entry').notNullable().comment('JSON: summary, detail, links');
    table.bigInteger('recorded_at').notNullable();
    table.unique(['environment_key', 'entry_key'], {
      indexName: 'gitlab_env_timeline_fact',
    });
    table.index(['environment_key', 'occurred_at', 'id'], 'gitlab_env_timeline_page');
    table.index(['occurred_at'], 'gitlab_env_timeline_age');
  });
  await knex.schema.createTable('gitlab_env_environment_health', table => {
    table.comment('The last health recorded per environment: transitions are told against it');
    table.string('environment_key', 255).primary();
    table.string('health', 16).notNullable();
    table
      .bigInteger('observed_at')
      .notNullable()
      .comment('When the state stored was observed: older observations do not overwrite it');
  });
  await knex.schema.createTable('gitlab_env_entity_environments', table => {
    table.comment('The environments each entity timeline shows, as the locator last found them');
    table.string('entity_ref', 255).notNullable();
    table.string('environment_key', 255).notNullable();
    table.string('environment_slug', 255).notNullable();
    table.string('environment_name', 255).notNullable();
    table.bigInteger('updated_at').notNullable();
    table.primary(['entity_ref', 'environment_key']);
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('gitlab_env_entity_environments');
  await knex.schema.dropTable('gitlab_env_environment_health');
  await knex.schema.dropTable('gitlab_env_timeline');
};
