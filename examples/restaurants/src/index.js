'use strict';

module.exports = {
  register() {},

  /** Fills an empty database with demo data on first start. */
  async bootstrap({ cairn }) {
    const restaurants = cairn.documents('api::restaurant.restaurant');
    if ((await restaurants.count({ status: 'draft', locale: '*' })) > 0) return;
    // Required here, not at the top: the seed (and its progress bar) costs ~100 ms to load, which a start on a
    // seeded database doesn't need.
    const { seedDemoData } = require('./seed');
    await seedDemoData(cairn);
  },
};
