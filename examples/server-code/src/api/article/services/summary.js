'use strict';

// A custom service: strapi.service('api::article.summary').
module.exports = () => ({
  of(entry) {
    return { title: entry.title, excerpt: (entry.body ?? '').slice(0, 12) };
  },
});
