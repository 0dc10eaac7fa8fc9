// Rows seeded straight into PostgreSQL, set-based (INSERT ... SELECT generate_series), with
// the columns the services write (see the migrations and the repositories named on each).
// Every seeder takes a range of sequence numbers [from, to], so a dimension grows by
// seeding only the rows it adds; row g is the same whatever step seeds it.

/** VACUUM (ANALYZE), as autovacuum eventually would (statistics, visibility map, hint bits), then a checkpoint. */
async function settleTables(db, tables) {
  for (const t of tables) await db.query(`VACUUM (ANALYZE) ${t}`);
  await db.query('CHECKPOINT');
}

/** `count` users who write the seeded messages and own the seeded rooms (CreateUser's columns; the owner's password hash). */
async function seedAuthors(db, ownerId, count) {
  await db.query(`
    INSERT INTO users (name, mention_name, email, title, password_hash, timezone, version)
    SELECT 'Scale Author ' || g, 'ScaleAuthor' || g, 'scale-author-' || g || '@example.com', 'Engineer',
           (SELECT password_hash FROM users WHERE id = $1), 'UTC', upper(substr(md5('scale-author-' || g), 1, 8))
      FROM generate_series(1, $2::int) AS g
    ON CONFLICT DO NOTHING`, [ownerId, count]);
  const { rows } = await db.query(`SELECT id, name FROM users WHERE email LIKE 'scale-author-%' ORDER BY id`);
  return rows;
}

/**
 * Messages g in [from, to] of one room, g sent at `startMs + g * spacingMs` (so a day holds
 * the same number of messages at every size). As RoomPost stores them: a random UUID,
 * `position` from its default (nextval of the outbox's sequence, in g order, like events
 * published one after the other); two in three are users' messages (SendMessage: type
 * message, text, from_label the user's name, every tenth mentioning a user), one in three
 * integrations' notifications (SendNotification: html, a colour, no user).
 */
async function seedMessages(db, { roomId, from, to, authors, startMs, spacingMs }) {
  await db.query(`
    INSERT INTO messages (id, room_id, type, from_label, user_id, body, message_format, color, notify, mention_user_ids, created_at)
    SELECT gen_random_uuid(), $1,
           CASE WHEN g % 3 = 0 THEN 'notification' ELSE 'message' END,
           CASE WHEN g % 3 = 0 THEN 'Jenkins' ELSE ($4::text[])[1 + g % cardinality($4::text[])] END,
           CASE WHEN g % 3 = 0 THEN NULL ELSE ($5::int[])[1 + g % cardinality($5::int[])] END,
           CASE WHEN g % 3 = 0
                THEN 'Build <b>#' || g || '</b> of <a href="https://ci.example.com/job/main/' || g || '">main</a> passed'
                ELSE 'Message ' || g || ': the deploy of service ' || g % 17 || ' went fine, the dashboard has the details' END,
           CASE WHEN g % 3 = 0 THEN 'html' ELSE 'text' END,
           CASE WHEN g % 3 = 0 THEN 'green' END,
           false,
           CASE WHEN g % 3 <> 0 AND g % 10 = 1 THEN ARRAY[($5::int[])[1 + (g + 1) % cardinality($5::int[])]] ELSE '{}'::int[] END,
           to_timestamp($6::float8 / 1000) + g * $7::float8 * interval '1 millisecond'
      FROM generate_series($2::bigint, $3::bigint) AS g`,
  [roomId, from, to, authors.map((a) => a.name), authors.map((a) => a.id), startMs, spacingMs]);
}

/**
 * Rooms g in [from, to], named `scale-room-<g>`, as CreateRoom writes them: one in ten
 * private (its owner a member), one in 25 archived, owners spread over `ownerIds`.
 */
async function seedRooms(db, { from, to, ownerIds }) {
  await db.query(`
    INSERT INTO rooms (name, topic, privacy, owner_user_id, is_archived, guest_access_token, version, created_at)
    SELECT 'scale-room-' || g, 'Room ' || g || ' of the scale benchmark',
           CASE WHEN g % 10 = 0 THEN 'private' ELSE 'public' END,
           ($3::int[])[1 + g % cardinality($3::int[])], g % 25 = 0, NULL, upper(substr(md5('scale-room-' || g), 1, 8)),
           now() - interval '1 year' + g * interval '1 minute'
      FROM generate_series($1::int, $2::int) AS g`, [from, to, ownerIds]);
  await db.query(`
    INSERT INTO room_members (room_id, user_id)
    SELECT id, owner_user_id FROM rooms
     WHERE privacy = 'private' AND name LIKE 'scale-room-%' AND substr(name, 12)::int BETWEEN $1 AND $2
    ON CONFLICT DO NOTHING`, [from, to]);
}

/**
 * Webhooks g in [from, to] over `roomIds`, as the REST API registers them (WebhookRepository.insert):
 * half for room_message with a pattern of their own, the others spread over room_message
 * (no pattern), room_notification, room_enter, room_exit and room_topic_change; URLs that are
 * never called (no event reaches these rooms while the bench runs). `extra` rows go in the
 * same transaction. The webhooks trigger stamps them and advances registrations_version
 * once for the transaction, as for any registration: the next event carries the new
 * version and makes every dispatcher reload its index (Registrations.upTo).
 */
async function seedWebhooks(db, { from, to, roomIds, ownerId, extra = [] }) {
  await db.query('BEGIN');
  try {
    await db.query(`
      INSERT INTO webhooks (room_id, event, url, pattern, name, authentication, delivery, key, secret, created_by_user_id)
      SELECT ($3::int[])[1 + g % cardinality($3::int[])],
             CASE WHEN g % 2 = 0 THEN 'room_message'
                  ELSE (ARRAY['room_message', 'room_notification', 'room_enter', 'room_exit', 'room_topic_change'])[1 + (g / 2) % 5] END,
             'http://127.0.0.1:9/scale/' || g,
             CASE WHEN g % 2 = 0 THEN '(?i)^deploy ' || g || ' to (prod|staging)\\b' END,
             'scale webhook ' || g, 'none', 'concurrent', NULL,
             rtrim(translate(encode(decode(md5('secret-a-' || g) || md5('secret-b-' || g), 'hex'), 'base64'), '+/', '-_'), '='),
             $4
        FROM generate_series($1::int, $2::int) AS g`, [from, to, roomIds, ownerId]);
    for (const w of extra) {
      await db.query(`INSERT INTO webhooks (room_id, event, url, pattern, name, authentication, delivery, secret, created_by_user_id)
        VALUES ($1, $2, $3, $4, $5, 'none', 'concurrent', md5($3), $6)`, [w.roomId, w.event, w.url, w.pattern ?? null, w.name, ownerId]);
    }
    await db.query('COMMIT');
  } catch (err) {
    await db.query('ROLLBACK');
    throw err;
  }
}

/** What a finished attempt was started after its delivery was created: the default retry schedule's waits, summed. */
const ATTEMPT_OFFSETS_S = [0, 5, 305, 2_105, 9_305, 27_305, 63_305];

/**
 * Deliveries g in [from, to] and their attempts, as the dispatcher records them
 * (DeliveryRepository: the envelope it POSTed, one attempt row per try): even g to the
 * `log` webhook, odd g spread over `others`; g created at `startMs + g * spacingMs`. 90%
 * delivered at the first attempt, 9% failed after the seven attempts of the default retry
 * schedule (answered 500), 1% cancelled. Only ended deliveries: none for the dispatcher's
 * sweeps to take up. `template` is a real delivery's envelope (its `marker` text replaced
 * per row) and its attempt's response headers. Ids are md5-derived UUIDs, as random as the
 * dispatcher's (v5, derived from the event and the webhook).
 */
async function seedDeliveries(db, { from, to, log, others, ownerId, startMs, spacingMs, template }) {
  await db.query(`
    INSERT INTO webhook_deliveries (id, webhook_id, event, event_id, room_id, status, attempts, last_status, last_error,
                                    next_attempt_at, envelope, created_at, updated_at, actor_user_id, reply_depth)
    SELECT md5('scale-delivery-' || g)::uuid,
           CASE WHEN g % 2 = 0 THEN $3 ELSE ($4::int[])[1 + (g / 2) % cardinality($4::int[])] END,
           'room_message', md5('scale-event-' || g)::uuid::text,
           CASE WHEN g % 2 = 0 THEN $5 ELSE ($6::int[])[1 + (g / 2) % cardinality($6::int[])] END,
           CASE WHEN g % 100 < 90 THEN 'delivered' WHEN g % 100 < 99 THEN 'failed' ELSE 'cancelled' END,
           CASE WHEN g % 100 BETWEEN 90 AND 98 THEN 7 ELSE 1 END,
           CASE WHEN g % 100 < 90 THEN 204 ELSE 500 END,
           NULL, NULL,
           replace($7, $8, 'seeded message ' || g),
           x.t, least(now(), x.t + CASE WHEN g % 100 BETWEEN 90 AND 98 THEN $12::int ELSE 0 END * interval '1 second'),
           $9, 1
      FROM generate_series($1::bigint, $2::bigint) AS g,
           LATERAL (SELECT to_timestamp($10::float8 / 1000) + g * $11::float8 * interval '1 millisecond' AS t) x`,
  [from, to, log.id, others.ids, log.roomId, others.roomIds, template.envelope, template.marker, ownerId, startMs, spacingMs, ATTEMPT_OFFSETS_S[ATTEMPT_OFFSETS_S.length - 1]]);
  await db.query(`
    INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status, error, response_excerpt, response_headers)
    SELECT md5('scale-delivery-' || g)::uuid, a,
           least(now(), to_timestamp($3::float8 / 1000) + g * $4::float8 * interval '1 millisecond' + ($5::int[])[a] * interval '1 second'),
           8 + (g + a) % 40,
           CASE WHEN g % 100 < 90 THEN 204 ELSE 500 END,
           NULL,
           CASE WHEN g % 100 < 90 THEN NULL ELSE 'Internal Server Error' END,
           $6::jsonb
      FROM generate_series($1::bigint, $2::bigint) AS g,
           LATERAL generate_series(1, CASE WHEN g % 100 BETWEEN 90 AND 98 THEN 7 ELSE 1 END) AS a`,
  [from, to, startMs, spacingMs, ATTEMPT_OFFSETS_S, template.headers]);
}

module.exports = { settleTables, seedAuthors, seedMessages, seedRooms, seedWebhooks, seedDeliveries, ATTEMPT_OFFSETS_S };
