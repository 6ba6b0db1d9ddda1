'use strict';
const cliProgress = require('cli-progress');

// Deterministic pseudo-random numbers, so every fresh start has the same demo data.
let state = 0x5eed;
const rand = () => {
  state = (state * 1103515245 + 12345) & 0x7fffffff;
  return state / 0x7fffffff;
};
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const pick = (list) => list[Math.floor(rand() * list.length)];
const pickN = (list, n) => [...list].sort(() => rand() - 0.5).slice(0, n);
const pad = (n, w) => String(n).padStart(w, '0');

const CATEGORIES = ['Pizza', 'Sushi', 'Tacos', 'Bistro', 'Vegan', 'Seafood', 'Steakhouse', 'Bakery', 'Ramen', 'Tapas'];
const FIRST = ['Alice', 'Antoine', 'Aiko', 'Bruno', 'Camille', 'Chloé', 'Diego', 'Élodie', 'Farid', 'Giulia', 'Hiro', 'Inès'];
const LAST = ['Martin', 'Rossi', 'Tanaka', 'García', 'Dubois', 'Moreau', 'Suzuki', 'López', 'Bianchi', 'Sato'];
const ADJ = ['Golden', 'Silver', 'Rustic', 'Little', 'Blue', 'Hidden', 'Happy', 'Old', 'Urban', 'Wild'];
const NOUN = ['Fork', 'Spoon', 'Table', 'Garden', 'Kitchen', 'Oven', 'Lantern', 'Harbor', 'Olive', 'Bamboo'];
const ADJ_FR = { Golden: 'Doré', Silver: 'Argenté', Rustic: 'Rustique', Little: 'Petit', Blue: 'Bleu', Hidden: 'Caché', Happy: 'Joyeux', Old: 'Vieux', Urban: 'Urbain', Wild: 'Sauvage' };
const FOOD = ['Margherita', 'Ramen Bowl', 'Taco al Pastor', 'Croissant', 'Tiramisu', 'Gyoza', 'Ceviche', 'Paella'];
const CITIES = ['Paris', 'Lyon', 'Tokyo', 'Rome', 'Mexico City', 'New York', 'Berlin', 'Montréal'];
const CUISINES = ['italian', 'french', 'japanese', 'mexican', 'other'];
const WORDS = ['fresh', 'seasonal', 'local', 'spicy', 'sweet', 'smoky', 'crispy', 'classic', 'cozy', 'bold'];
const sentence = (n) => {
  const text = Array.from({ length: n }, () => pick(WORDS)).join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
};

const COUNTS = { categories: 10, chefs: 20, dishes: 30, authors: 20, restaurants: 120, articles: 200 };

async function seedDemoData(cairn) {
  const total = Object.values(COUNTS).reduce((a, b) => a + b, 0);
  process.stderr.write('Seeding demo data…\n');
  const bar = new cliProgress.SingleBar(
    { format: '  {bar} {percentage}% | {value}/{total} entries', hideCursor: true, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  const started = Date.now();
  const make = async (uid, data, extra = {}) => {
    const entry = await cairn.documents(uid).create({ data, ...extra });
    bar.increment();
    return entry.documentId;
  };

  const categories = [];
  for (const name of CATEGORIES) categories.push(await make('api::category.category', { name }));
  const chefs = [];
  for (let i = 1; i <= COUNTS.chefs; i++) {
    chefs.push(await make('api::chef.chef', { name: `${pick(FIRST)} ${pick(LAST)}`, email: `chef${pad(i, 3)}@example.com`, bio: sentence(8) }));
  }
  const dishes = [];
  for (let i = 1; i <= COUNTS.dishes; i++) {
    dishes.push(await make('api::dish.dish', { name: `Dish ${pad(i, 3)} ${pick(FOOD)}`, price: Math.round((4 + rand() * 30) * 100) / 100 }));
  }
  const authors = [];
  for (let i = 1; i <= COUNTS.authors; i++) {
    authors.push(await make('api::author.author', { name: `${pick(FIRST)} ${pick(LAST)}`, email: `author${pad(i, 3)}@example.com` }));
  }
  const restaurants = cairn.documents('api::restaurant.restaurant');
  for (let i = 1; i <= COUNTS.restaurants; i++) {
    const adj = pick(ADJ);
    const noun = pick(NOUN);
    const name = `${adj} ${noun} ${pad(i, 3)}`;
    const documentId = await make(
      'api::restaurant.restaurant',
      {
        name,
        slug: `${adj}-${noun}-${pad(i, 3)}`.toLowerCase(),
        description: `# ${name}\n\n${sentence(12)}`,
        stars: int(1, 5),
        price: Math.round((5 + rand() * 60) * 100) / 100,
        open: rand() > 0.2,
        openedOn: `${int(2000, 2024)}-${pad(int(1, 12), 2)}-${pad(int(1, 28), 2)}`,
        category: pick(CUISINES),
        tags: pickN(['terrace', 'vegan-friendly', 'late-night', 'family', 'brunch', 'michelin'], int(0, 3)),
        chef: pick(chefs),
        categories: pickN(categories, int(1, 3)),
        address: { street: `${int(1, 200)} Main St`, city: pick(CITIES), zip: pad(int(10000, 99999), 5), geo: { lat: rand() * 180 - 90, lng: rand() * 360 - 180 } },
        blocks: [
          { __component: 'sections.hero', title: `Welcome to ${name}`, subtitle: sentence(6) },
          { __component: 'sections.menu', title: 'Menu', dishes: pickN(dishes, int(1, 4)) },
        ],
      },
      { status: i % 10 === 0 ? 'draft' : undefined },
    );
    if (i % 4 === 0) {
      await restaurants.update({ documentId, locale: 'fr', data: { name: `${noun} ${ADJ_FR[adj]} ${pad(i, 3)}`, slug: `fr-${pad(i, 3)}` } });
    }
  }
  for (let i = 1; i <= COUNTS.articles; i++) {
    await make(
      'api::article.article',
      {
        title: `Article ${pad(i, 4)} ${pick(WORDS)} ${pick(FOOD)}`,
        body: `${sentence(10)}\n\n${sentence(14)}`,
        publishDate: new Date(Date.UTC(2019, 0, 1) + Math.floor(rand() * 6 * 365) * 86400000).toISOString(),
        views: String(int(0, 100000)),
        rating: Math.round(rand() * 50) / 10,
        author: pick(authors),
        categories: pickN(categories, int(0, 3)),
      },
      { status: i % 12 === 0 ? 'draft' : undefined },
    );
  }
  bar.stop();
  process.stderr.write(`Seeded ${total} entries in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

module.exports = { seedDemoData };
