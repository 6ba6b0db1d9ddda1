SELECT t.id, t.name, t.description, t.type, t.access_key, t.expires_at, t.last_used_at, t.created_at, p.action FROM strapi_api_tokens t LEFT JOIN strapi_api_token_permissions_token_lnk l ON l.api_token_id = t.id LEFT JOIN strapi_api_token_permissions p ON p.id = l.api_token_permission_id WHERE t.access_key = ? AND (t.kind = 'content-api' OR t.kind IS NULL) ORDER BY t.id, l.api_token_permission_ord, p.id;

SELECT id, published_at, locale FROM "restaurants" WHERE document_id = ? AND locale = ? ORDER BY id;

SELECT id, published_at, locale FROM "restaurants" WHERE document_id = ? ORDER BY id;

UPDATE "restaurants" SET "updated_at" = ? WHERE id IN (?);

SELECT id, document_id, published_at FROM "categories" WHERE document_id IN (?, ?) ORDER BY id;

SELECT id, "category_id" AS m, "category_ord" AS o FROM "restaurants_categories_lnk" WHERE "restaurant_id" = ? AND "category_id" IN (?, ?);

SELECT id, "category_ord" AS o FROM "restaurants_categories_lnk" WHERE "restaurant_id" = ? AND id IN (?);

SELECT 0 AS w, id, o FROM (SELECT * FROM (SELECT id, "category_ord" AS o, "restaurant_id" AS k FROM "restaurants_categories_lnk" WHERE "category_ord" IS NOT NULL ORDER BY "category_ord" ASC, id ASC LIMIT 64) a WHERE k = ? ORDER BY o ASC, id ASC LIMIT 17) b UNION ALL SELECT 0 AS w, NULL AS id, COUNT(*) AS o FROM (SELECT "category_ord" FROM "restaurants_categories_lnk" WHERE "category_ord" IS NOT NULL ORDER BY "category_ord" ASC, id ASC LIMIT 64) c UNION ALL SELECT 1 AS w, id, o FROM (SELECT * FROM (SELECT id, "category_ord" AS o, "restaurant_id" AS k FROM "restaurants_categories_lnk" WHERE "category_ord" IS NOT NULL ORDER BY "category_ord" DESC, id DESC LIMIT 64) a WHERE k = ? ORDER BY o DESC, id DESC LIMIT 17) b UNION ALL SELECT 1 AS w, NULL AS id, COUNT(*) AS o FROM (SELECT "category_ord" FROM "restaurants_categories_lnk" WHERE "category_ord" IS NOT NULL ORDER BY "category_ord" DESC, id DESC LIMIT 64) c UNION ALL SELECT 2 AS w, id, o FROM (SELECT * FROM (SELECT id, "category_ord" AS o, "restaurant_id" AS k FROM "restaurants_categories_lnk" WHERE "category_ord" <= ? AND ("category_ord" < ? OR id < ?) ORDER BY "category_ord" DESC, id DESC LIMIT 64) a WHERE k = ? ORDER BY o DESC, id DESC LIMIT 1) b UNION ALL SELECT 2 AS w, NULL AS id, COUNT(*) AS o FROM (SELECT "category_ord" FROM "restaurants_categories_lnk" WHERE "category_ord" <= ? AND ("category_ord" < ? OR id < ?) ORDER BY "category_ord" DESC, id DESC LIMIT 64) c UNION ALL SELECT 3 AS w, id, o FROM (SELECT * FROM (SELECT id, "category_ord" AS o, "restaurant_id" AS k FROM "restaurants_categories_lnk" WHERE "category_ord" >= ? AND ("category_ord" > ? OR id > ?) ORDER BY "category_ord" ASC, id ASC LIMIT 64) a WHERE k = ? ORDER BY o ASC, id ASC LIMIT 1) b UNION ALL SELECT 3 AS w, NULL AS id, COUNT(*) AS o FROM (SELECT "category_ord" FROM "restaurants_categories_lnk" WHERE "category_ord" >= ? AND ("category_ord" > ? OR id > ?) ORDER BY "category_ord" ASC, id ASC LIMIT 64) c;

INSERT INTO "restaurants_categories_lnk" ("restaurant_id", "category_id", "category_ord", "restaurant_ord") SELECT ?, ?, ?, COALESCE(MAX("restaurant_ord"), 0) + 1 FROM "restaurants_categories_lnk" WHERE "category_id" = ?;

UPDATE "restaurants" SET updated_at = updated_at + 1 WHERE id = ? AND updated_at = (SELECT v FROM (SELECT updated_at AS v FROM "restaurants" WHERE id = ?) p);

SELECT json_object('id', t0."id", 'documentId', t0."document_id", 'name', t0."name", 'stars', t0."stars", 'createdAt', CASE WHEN typeof(t0."created_at") = 'integer' THEN replace(datetime(t0."created_at" / 1000.0, 'unixepoch', 'subsec'), ' ', 'T') || 'Z' ELSE t0."created_at" END, 'updatedAt', CASE WHEN typeof(t0."updated_at") = 'integer' THEN replace(datetime(t0."updated_at" / 1000.0, 'unixepoch', 'subsec'), ' ', 'T') || 'Z' ELSE t0."updated_at" END, 'publishedAt', CASE WHEN typeof(t0."published_at") = 'integer' THEN replace(datetime(t0."published_at" / 1000.0, 'unixepoch', 'subsec'), ' ', 'T') || 'Z' ELSE t0."published_at" END, 'locale', t0."locale") AS doc FROM "restaurants" t0 WHERE t0."published_at" IS NULL AND t0."locale" = ? AND t0."document_id" = ? LIMIT 1 OFFSET 0;
