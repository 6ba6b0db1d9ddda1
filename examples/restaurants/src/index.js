'use strict';
const { seedDemoData } = require('./seed');

module.exports = {
  register() {},

  /** Fills an empty database with demo data on first start. */
  async bootstrap({ cairn }) {
    const restaurants = cairn.documents('api::restaurant.restaurant');
    if ((await restaurants.count({ status: 'draft', locale: '*' })) > 0) return;
    await seedDemoData(cairn);
  },
};
