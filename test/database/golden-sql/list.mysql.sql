SELECT access_key, id, name, description, type, permissions, expires_at, last_used_at, created_at FROM cairn_api_tokens WHERE access_key = ?;

SELECT JSON_OBJECT('id', t0.`id`, 'documentId', t0.`document_id`, 'name', t0.`name`, 'stars', t0.`stars`) AS doc, (SELECT COUNT(*) FROM `restaurants` c0 WHERE c0.`published_at` IS NOT NULL AND c0.`locale` = ?) AS total FROM `restaurants` t0 WHERE t0.`published_at` IS NOT NULL AND t0.`locale` = ? ORDER BY t0.`name` COLLATE utf8mb4_bin ASC, t0.`id` ASC LIMIT 10 OFFSET 0;
