SELECT t.id, t.name, t.description, t.type, t.access_key, t.expires_at, t.last_used_at, t.created_at, p.action FROM strapi_api_tokens t LEFT JOIN strapi_api_token_permissions_token_lnk l ON l.api_token_id = t.id LEFT JOIN strapi_api_token_permissions p ON p.id = l.api_token_permission_id WHERE t.access_key = ? AND (t.kind = 'content-api' OR t.kind IS NULL) ORDER BY t.id, l.api_token_permission_ord, p.id;

SELECT pg_advisory_xact_lock(72616954, k) AS locked FROM unnest(ARRAY[?, ?]::int[]) AS k;

SELECT id, published_at, locale FROM "restaurants" WHERE document_id = ? ORDER BY id;

UPDATE "restaurants" SET "updated_at" = ? WHERE id IN (?);

SELECT id, document_id, published_at FROM "categories" WHERE document_id IN (?, ?) ORDER BY id;

SELECT 0 AS r, w.id, w."category_id" AS m, w."category_ord" AS o, CASE WHEN w."category_id" IN (?) THEN (SELECT MAX(p."category_ord") FROM "restaurants_categories_lnk" p WHERE p."restaurant_id" = ? AND p."category_ord" <= w."category_ord" AND (p."category_ord" < w."category_ord" OR p.id < w.id)) END AS prev, CASE WHEN w."category_id" IN (?) THEN (SELECT MIN(n."category_ord") FROM "restaurants_categories_lnk" n WHERE n."restaurant_id" = ? AND n."category_ord" >= w."category_ord" AND (n."category_ord" > w."category_ord" OR n.id > w.id)) END AS next FROM "restaurants_categories_lnk" w WHERE w."restaurant_id" = ? AND w."category_id" IN (?, ?) UNION ALL SELECT 0 AS r, w.id, NULL AS m, w."category_ord" AS o, (SELECT MAX(p."category_ord") FROM "restaurants_categories_lnk" p WHERE p."restaurant_id" = ? AND p."category_ord" <= w."category_ord" AND (p."category_ord" < w."category_ord" OR p.id < w.id)) AS prev, (SELECT MIN(n."category_ord") FROM "restaurants_categories_lnk" n WHERE n."restaurant_id" = ? AND n."category_ord" >= w."category_ord" AND (n."category_ord" > w."category_ord" OR n.id > w.id)) AS next FROM "restaurants_categories_lnk" w WHERE w."restaurant_id" = ? AND w."category_ord" IN ((SELECT MIN("category_ord") FROM "restaurants_categories_lnk" WHERE "restaurant_id" = ?), (SELECT MAX("category_ord") FROM "restaurants_categories_lnk" WHERE "restaurant_id" = ?)) /* planned per run */;

INSERT INTO "restaurants_categories_lnk" ("restaurant_id", "category_id", "category_ord", "restaurant_ord") SELECT ?, ?, ?, COALESCE(MAX("restaurant_ord"), 0) + 1 FROM "restaurants_categories_lnk" WHERE "category_id" = ?;

UPDATE "restaurants" SET updated_at = updated_at + INTERVAL '1 millisecond' WHERE id = ? AND updated_at = (SELECT v FROM (SELECT updated_at AS v FROM "restaurants" WHERE id = ?) p);

SELECT ((SELECT row_to_json(e) FROM (SELECT t0."id" AS "id", t0."document_id" AS "documentId", t0."name" AS "name", t0."stars" AS "stars", to_char(t0."created_at", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt", to_char(t0."updated_at", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt", to_char(t0."published_at", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "publishedAt", t0."locale" AS "locale") e))::text AS doc FROM "restaurants" t0 WHERE t0."published_at" IS NULL AND t0."locale" = ? AND t0."document_id" = ? LIMIT 1 OFFSET 0;
