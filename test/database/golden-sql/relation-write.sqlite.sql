SELECT access_key, id, name, description, type, permissions, expires_at, last_used_at, created_at FROM cairn_api_tokens WHERE access_key = ?;

SELECT id, published_at, locale FROM "restaurants" WHERE document_id = ? AND locale = ? ORDER BY id;

UPDATE "restaurants" SET "updated_at" = ? WHERE id IN (?);

SELECT DISTINCT document_id FROM "categories" WHERE document_id IN (?);

SELECT id, target_status, ord AS o FROM "restaurants_categories_lnk" WHERE entity_id = ? AND target_document_id = ? AND target_locale = ?;

SELECT id, ord AS o FROM "restaurants_categories_lnk" WHERE entity_id = ? AND target_document_id = ?;

SELECT t.id, t.ord AS o, (SELECT MAX(p.ord) FROM "restaurants_categories_lnk" p WHERE p.entity_id = ? AND p.ord < t.ord) AS prev, (SELECT MIN(n.ord) FROM "restaurants_categories_lnk" n WHERE n.entity_id = ? AND n.ord > t.ord) AS next FROM "restaurants_categories_lnk" t WHERE t.id IN (?) UNION ALL SELECT t.id, t.ord AS o, (SELECT MAX(p.ord) FROM "restaurants_categories_lnk" p WHERE p.entity_id = ? AND p.ord < t.ord) AS prev, (SELECT MIN(n.ord) FROM "restaurants_categories_lnk" n WHERE n.entity_id = ? AND n.ord > t.ord) AS next FROM "restaurants_categories_lnk" t WHERE t.entity_id = ? AND t.ord IN ((SELECT MIN(ord) FROM "restaurants_categories_lnk" WHERE entity_id = ?), (SELECT MAX(ord) FROM "restaurants_categories_lnk" WHERE entity_id = ?));

SELECT MAX(inv_ord) AS m FROM "restaurants_categories_lnk" WHERE target_document_id = ?;

INSERT INTO "restaurants_categories_lnk" (entity_id, target_document_id, target_locale, target_status, ord, inv_ord) VALUES (?, ?, ?, ?, ?, ?);

SELECT json_object('id', t0."id", 'documentId', t0."document_id", 'name', t0."name", 'stars', t0."stars", 'createdAt', t0."created_at", 'updatedAt', t0."updated_at", 'publishedAt', t0."published_at", 'locale', t0."locale") AS doc FROM "restaurants" t0 WHERE t0."published_at" IS NULL AND t0."locale" = ? AND t0."document_id" = ? LIMIT 1 OFFSET 0;
