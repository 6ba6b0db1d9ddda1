SELECT access_key, id, name, description, type, permissions, expires_at, last_used_at, created_at FROM cairn_api_tokens WHERE access_key = ?;

SELECT id, published_at, locale FROM "restaurants" WHERE document_id = ? AND locale = ? ORDER BY id;

SELECT "name" FROM "restaurants" WHERE id = ?;

SELECT cmp_id, component_type FROM "restaurants_cmps" WHERE entity_id IN (?);

DELETE FROM "components_sections_heroes" WHERE id IN (?);

SELECT cmp_id, component_type FROM "components_sections_menus_cmps" WHERE entity_id IN (?);

DELETE FROM "components_location_geos" WHERE id IN (?);

DELETE FROM "components_sections_menus_cmps" WHERE entity_id IN (?);

DELETE FROM "components_sections_menus" WHERE id IN (?);

DELETE FROM "restaurants_cmps" WHERE entity_id IN (?);

DELETE FROM "restaurants_chef_lnk" WHERE entity_id IN (?);

DELETE FROM "restaurants_categories_lnk" WHERE entity_id IN (?);

DELETE FROM "restaurants" WHERE id IN (?);

SELECT * FROM "restaurants" WHERE id = ?;

INSERT INTO "restaurants" ("document_id", "name", "stars", "created_at", "updated_at", "published_at", "locale") VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id;

INSERT INTO "restaurants_chef_lnk" (entity_id, target_document_id, target_locale, target_status, ord, inv_ord) SELECT ?, target_document_id, target_locale, target_status, ord, inv_ord FROM "restaurants_chef_lnk" WHERE entity_id = ?;

INSERT INTO "restaurants_categories_lnk" (entity_id, target_document_id, target_locale, target_status, ord, inv_ord) SELECT ?, target_document_id, target_locale, target_status, ord, inv_ord FROM "restaurants_categories_lnk" WHERE entity_id = ?;

SELECT cmp_id, component_type, field, ord FROM "restaurants_cmps" WHERE entity_id = ? ORDER BY ord, id;

SELECT * FROM "components_sections_heroes" WHERE id = ?;

INSERT INTO "components_sections_heroes" ("title") VALUES (?) RETURNING id;

INSERT INTO "restaurants_cmps" (entity_id, cmp_id, component_type, field, ord) VALUES (?, ?, ?, ?, ?);

SELECT * FROM "components_sections_menus" WHERE id = ?;

INSERT INTO "components_sections_menus" ("title") VALUES (?) RETURNING id;

SELECT cmp_id, component_type, field, ord FROM "components_sections_menus_cmps" WHERE entity_id = ? ORDER BY ord, id;

SELECT * FROM "components_location_geos" WHERE id = ?;

INSERT INTO "components_location_geos" ("lat", "lng") VALUES (?, ?) RETURNING id;

INSERT INTO "components_sections_menus_cmps" (entity_id, cmp_id, component_type, field, ord) VALUES (?, ?, ?, ?, ?);

INSERT INTO "restaurants_cmps" (entity_id, cmp_id, component_type, field, ord) VALUES (?, ?, ?, ?, ?);

SELECT json_object('id', t0."id", 'documentId', t0."document_id", 'name', t0."name", 'stars', t0."stars", 'createdAt', t0."created_at", 'updatedAt', t0."updated_at", 'publishedAt', t0."published_at", 'locale', t0."locale") AS doc FROM "restaurants" t0 WHERE t0."published_at" IS NOT NULL AND t0."locale" = ? AND t0."document_id" = ? LIMIT 1 OFFSET 0;
