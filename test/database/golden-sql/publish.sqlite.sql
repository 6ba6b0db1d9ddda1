SELECT t.id, t.name, t.description, t.type, t.access_key, t.expires_at, t.last_used_at, t.created_at, p.action FROM strapi_api_tokens t LEFT JOIN strapi_api_token_permissions_token_lnk l ON l.api_token_id = t.id LEFT JOIN strapi_api_token_permissions p ON p.id = l.api_token_permission_id WHERE t.access_key = ? AND (t.kind = 'content-api' OR t.kind IS NULL) ORDER BY t.id, l.api_token_permission_ord, p.id;

SELECT id, published_at, locale FROM "restaurants" WHERE document_id = ? AND locale = ? ORDER BY id;

SELECT id, published_at, locale FROM "restaurants" WHERE document_id = ? ORDER BY id;

SELECT "name" FROM "restaurants" WHERE id = ?;

UPDATE "restaurants" SET "updated_at" = ? WHERE id IN (?);

UPDATE "restaurants" SET "document_id" = s."document_id", "name" = s."name", "stars" = s."stars", "created_at" = s."created_at", "updated_at" = s."updated_at", "created_by_id" = s."created_by_id", "updated_by_id" = s."updated_by_id", "locale" = s."locale", "published_at" = ? FROM "restaurants" s WHERE s.id = ? AND "restaurants".id = ? RETURNING "restaurants".id;

SELECT cmp_id, component_type FROM "restaurants_cmps" WHERE entity_id IN (?);

DELETE FROM "components_sections_heroes" WHERE id IN (?);

SELECT cmp_id, component_type FROM "components_sections_menus_cmps" WHERE entity_id IN (?);

DELETE FROM "components_location_geos" WHERE id IN (?);

DELETE FROM "components_sections_menus_cmps" WHERE entity_id IN (?);

DELETE FROM "components_sections_menus" WHERE id IN (?);

DELETE FROM "restaurants_cmps" WHERE entity_id IN (?);

SELECT id, cmp_id, component_type FROM "restaurants_cmps" WHERE entity_id = ? ORDER BY id;

INSERT INTO "components_sections_heroes" ("title") SELECT "title" FROM "components_sections_heroes" WHERE id = ? RETURNING id;

INSERT INTO "restaurants_cmps" (entity_id, cmp_id, component_type, field, "order") SELECT 2, 3, component_type, field, "order" FROM "restaurants_cmps" WHERE id = ?;

INSERT INTO "components_sections_menus" ("title") SELECT "title" FROM "components_sections_menus" WHERE id = ? RETURNING id;

SELECT id, cmp_id, component_type FROM "components_sections_menus_cmps" WHERE entity_id = ? ORDER BY id;

INSERT INTO "components_location_geos" ("lat", "lng") SELECT "lat", "lng" FROM "components_location_geos" WHERE id = ? RETURNING id;

INSERT INTO "components_sections_menus_cmps" (entity_id, cmp_id, component_type, field, "order") SELECT 3, 4, component_type, field, "order" FROM "components_sections_menus_cmps" WHERE id = ?;

INSERT INTO "restaurants_cmps" (entity_id, cmp_id, component_type, field, "order") SELECT 2, 3, component_type, field, "order" FROM "restaurants_cmps" WHERE id = ?;

SELECT id FROM "restaurants" WHERE id IN (?, ?);

DELETE FROM "restaurants_chef_lnk" WHERE "restaurants_chef_lnk"."restaurant_id" = ? AND NOT EXISTS (SELECT 1 FROM "restaurants_chef_lnk" l WHERE l."restaurant_id" = ? AND l."chef_id" = "restaurants_chef_lnk"."chef_id") /* planned per run */;

INSERT INTO "restaurants_chef_lnk" ("restaurant_id", "chef_id", "restaurant_ord") SELECT 2, l."chef_id", COALESCE((SELECT MAX(x."restaurant_ord") FROM "restaurants_chef_lnk" x WHERE x."chef_id" = l."chef_id"), 0) + 1 FROM "restaurants_chef_lnk" l WHERE l."restaurant_id" = ? AND NOT EXISTS (SELECT 1 FROM "restaurants_chef_lnk" k WHERE k."restaurant_id" = 2 AND k."chef_id" = l."chef_id") /* planned per run */;

SELECT COUNT(*) AS n FROM "restaurants_chef_lnk" WHERE "restaurant_id" = ?;

SELECT id FROM "restaurants" WHERE id IN (?, ?);

DELETE FROM "restaurants_categories_lnk" WHERE "restaurants_categories_lnk"."restaurant_id" = ? AND NOT EXISTS (SELECT 1 FROM "restaurants_categories_lnk" l WHERE l."restaurant_id" = ? AND l."category_id" = "restaurants_categories_lnk"."category_id") /* planned per run */;

UPDATE "restaurants_categories_lnk" SET "category_ord" = x.v FROM (SELECT l."category_id" AS mm, MIN(l."category_ord") AS v FROM "restaurants_categories_lnk" l WHERE l."restaurant_id" = ? GROUP BY l."category_id") x WHERE "restaurants_categories_lnk"."restaurant_id" = ? AND "restaurants_categories_lnk"."category_id" = x.mm AND "restaurants_categories_lnk"."category_ord" IS NOT x.v /* planned per run */;

INSERT INTO "restaurants_categories_lnk" ("restaurant_id", "category_id", "category_ord", "restaurant_ord") SELECT 2, l."category_id", l."category_ord", COALESCE((SELECT MAX(x."restaurant_ord") FROM "restaurants_categories_lnk" x WHERE x."category_id" = l."category_id"), 0) + 1 FROM "restaurants_categories_lnk" l WHERE l."restaurant_id" = ? AND NOT EXISTS (SELECT 1 FROM "restaurants_categories_lnk" k WHERE k."restaurant_id" = 2 AND k."category_id" = l."category_id") /* planned per run */;

SELECT COUNT(*) AS n FROM "restaurants_categories_lnk" WHERE "restaurant_id" = ?;

SELECT json_object('id', t0."id", 'documentId', t0."document_id", 'name', t0."name", 'stars', t0."stars", 'createdAt', CASE WHEN typeof(t0."created_at") = 'integer' THEN replace(datetime(t0."created_at" / 1000.0, 'unixepoch', 'subsec'), ' ', 'T') || 'Z' ELSE t0."created_at" END, 'updatedAt', CASE WHEN typeof(t0."updated_at") = 'integer' THEN replace(datetime(t0."updated_at" / 1000.0, 'unixepoch', 'subsec'), ' ', 'T') || 'Z' ELSE t0."updated_at" END, 'publishedAt', CASE WHEN typeof(t0."published_at") = 'integer' THEN replace(datetime(t0."published_at" / 1000.0, 'unixepoch', 'subsec'), ' ', 'T') || 'Z' ELSE t0."published_at" END, 'locale', t0."locale") AS doc FROM "restaurants" t0 WHERE t0."published_at" IS NOT NULL AND t0."locale" = ? AND t0."document_id" = ? LIMIT 1 OFFSET 0;
