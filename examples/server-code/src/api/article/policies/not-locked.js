'use strict';

// An API policy with config: an article whose `config.field` is true can't be changed.
module.exports = async (policyContext, config, { strapi }) => {
  const entry = await strapi.service('api::article.article').findOne(policyContext.params.id);
  return !entry || !entry[config.field];
};
