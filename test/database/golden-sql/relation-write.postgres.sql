SELECT access_key, id, name, description, type, permissions, expires_at, last_used_at, created_at FROM cairn_api_tokens WHERE access_key = ?;

SELECT pg_advisory_xact_lock(?, ?) AS locked;

SELECT pg_advisory_xact_lock(?, ?) AS locked;

SELECT id, published_at, locale FROM "restaurants" WHERE document_id = ? AND locale = ? ORDER BY id;

UPDATE "restaurants" SET "updated_at" = ? WHERE id IN (?);

SELECT DISTINCT document_id FROM "categories" WHERE document_id IN (?);

SELECT id, target_status, ord AS o FROM "restaurants_categories_lnk" WHERE entity_id = ? AND target_document_id = ? AND target_locale = ?;

SELECT id, ord AS o FROM "restaurants_categories_lnk" WHERE entity_id = ? AND target_document_id = ?;

SELECT t.id, t.ord AS o, (SELECT MAX(p.ord) FROM "restaurants_categories_lnk" p WHERE p.entity_id = ? AND p.ord < t.ord) AS prev, (SELECT MIN(n.ord) FROM "restaurants_categories_lnk" n WHERE n.entity_id = ? AND n.ord > t.ord) AS next FROM "restaurants_categories_lnk" t WHERE t.id IN (?) UNION ALL SELECT t.id, t.ord AS o, (SELECT MAX(p.ord) FROM "restaurants_categories_lnk" p WHERE p.entity_id = ? AND p.ord < t.ord) AS prev, (SELECT MIN(n.ord) FROM "restaurants_categories_lnk" n WHERE n.entity_id = ? AND n.ord > t.ord) AS next FROM "restaurants_categories_lnk" t WHERE t.entity_id = ? AND t.ord IN ((SELECT MIN(ord) FROM "restaurants_categories_lnk" WHERE entity_id = ?), (SELECT MAX(ord) FROM "restaurants_categories_lnk" WHERE entity_id = ?));

SELECT MAX(inv_ord) AS m FROM "restaurants_categories_lnk" WHERE target_document_id = ?;

INSERT INTO "restaurants_categories_lnk" (entity_id, target_document_id, target_locale, target_status, ord, inv_ord) VALUES (?, ?, ?, ?, ?, ?);

SELECT ((SELECT row_to_json(e) FROM (SELECT t0."id" AS "id", t0."document_id" AS "documentId", t0."name" AS "name", t0."stars" AS "stars", to_char(t0."created_at", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt", to_char(t0."updated_at", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt", to_char(t0."published_at", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "publishedAt", t0."locale" AS "locale") e))::text AS doc FROM "restaurants" t0 WHERE t0."published_at" IS NULL AND t0."locale" = ? AND t0."document_id" = ? LIMIT 1 OFFSET 0;
