'use strict';

/**
 * `api-tests/builder` over Cairn: `createTestBuilder().addComponent(...).addContentType(...).addFixtures(...)
 * .build()` declares the models (an app folder), starts Cairn on them and creates the fixtures (models.js).
 */
const app = require('../app');
const models = require('./models');

function createTestBuilder() {
  let actions = [];
  let declared = [];
  let fixtures = {};

  const builder = {
    get models() {
      return declared;
    },

    get fixtures() {
      return fixtures;
    },

    /** As Strapi's builder: each model's fixtures replaced by their sanitized rows (private fields and passwords gone). */
    async sanitizedFixtures() {
      for (const key of Object.keys(fixtures)) fixtures[key] = builder.sanitizedFixturesFor(key);
      return fixtures;
    },

    sanitizedFixturesFor(modelName) {
      return models.sanitizedRows(modelName, fixtures[modelName]);
    },

    fixturesFor(modelName) {
      return fixtures[modelName];
    },

    addContentType(contentType) {
      actions.push({ kind: 'contentTypes', defs: [contentType] });
      return builder;
    },

    addContentTypes(contentTypes) {
      actions.push({ kind: 'contentTypes', defs: contentTypes });
      return builder;
    },

    addComponent(component) {
      actions.push({ kind: 'components', defs: [component] });
      return builder;
    },

    addFixtures(modelName, entries) {
      actions.push({ kind: 'fixtures', modelName, entries });
      return builder;
    },

    async build() {
      // Models (and locales, which are configuration) first, one start, then the fixtures in declared order.
      for (const action of actions) {
        if (action.kind === 'contentTypes') declared.push(...action.defs.map((def) => app.addModel('contentType', def)));
        if (action.kind === 'components') declared.push(...action.defs.map((def) => app.addModel('component', def)));
        if (action.kind === 'fixtures' && models.toContentTypeUID(action.modelName) === 'plugin::i18n.locale') {
          fixtures[action.modelName] = await models.createFixturesFor(action.modelName, action.entries);
        }
      }
      await app.start();
      for (const action of actions) {
        if (action.kind !== 'fixtures' || models.toContentTypeUID(action.modelName) === 'plugin::i18n.locale') continue;
        const entries = typeof action.entries === 'function' ? action.entries(fixtures) : action.entries;
        // As Strapi's builder: rows as JSON would give them (dates as ISO strings).
        const created = JSON.parse(JSON.stringify(await models.createFixturesFor(action.modelName, entries)));
        fixtures[action.modelName] = [...(fixtures[action.modelName] || []), ...created];
      }
      return builder;
    },

    async cleanup() {
      for (const model of declared.reverse()) app.removeModel(model.uid);
      await app.discardIfEmpty();
      actions = [];
      declared = [];
      fixtures = {};
      return builder;
    },
  };
  return builder;
}

module.exports = { createTestBuilder };
