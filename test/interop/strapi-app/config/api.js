// Same values as the create-strapi-app template (and as test/fixtures/conformance/app/config/api.js).
module.exports = {
  rest: {
    defaultLimit: 25,
    maxLimit: 100,
    withCount: true,
  },
};
