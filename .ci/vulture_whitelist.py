"""Names vulture (issue 30 §6: `make deadcode`, run by CI's lint step) cannot see used, each for a reason.

Vulture reads `src/duelclub`, `tests` and `benchmarks` at its lowest confidence (60: unused functions,
classes, methods, attributes and variables); what is only used from outside Python, by a library through a
protocol, or as data, is named here. Every line is a name, read by vulture only (never imported).
"""

# ruff: noqa: B018
_ = object()

# -- Data: fields of JSON documents (event TypedDicts, the position models, API response models) that the
#    server writes and the pages, the tests' adapters or the API's clients read.
_.nektar_by  # games/artania events and position model
_.target_placement  # games/mezha/events.py: shot and podzhog_hit
_.target_card
_.target_strength
_.shield_absorbed
_.target_type  # games/warchest/events.py: attack
_.attacker_type  # games/warchest/events.py: counter
_.english  # games/towers/cards.py: the cards table's column (rules data)
_.blocked_at  # play/blocks.py: the blocks list's row
_.active_days  # play/ratings.py: the ratings page's row
_.reason_text
_.replay_url
_.opener_rating  # play/schemas.py: API response models
_.final_view
_.author_rating
_.worker_pid  # web/routes/admin.py: /api/admin/status
_.uptime_seconds
_.db_pool_in_use
_.bus_ok
_.by_phase  # web/routes/games.py: /api/games
_.options_schema
_.rules_panel
_.email_pending  # web/routes/mail.py: /api/account/email
_.has_email  # web/routes/notices.py: /api/me/notices
_.expirationTime  # web/routes/push.py: PushSubscription.toJSON()'s field, accepted and ignored

# -- The store: ORM columns (written and read through SQLAlchemy), and attributes a library reads.
_.hidden_by  # store/models.py, store/chat.py
_.resolved_by
_.sent_at
_.impl  # store/models.py: UTCDateTime, a SQLAlchemy TypeDecorator, and its hooks
_.cache_ok
_.process_bind_param
_.process_result_value
_.type_annotation_map  # store/models.py: DeclarativeBase
_.isolation_level  # store/db.py: the SQLite connection's, set in the connect hook
_.autocommit  # store/hot_write.py: psycopg's connection
_.total_tokens  # web/app.py: anyio's thread limiter

# -- Tests: hooks and fakes that libraries call by name.
_.encoding  # tests/bots/test_towers_fitted.py: a fake Path.read_text(encoding=...)
_.mechanism  # tests/notify/test_smtp_tls.py: aiosmtpd's authenticator signature
_.handle_DATA  # tests/notify/smtp_box.py: aiosmtpd's handler hook
_.should_exit  # tests/conftest.py: uvicorn's server flag
_.middleware_stack  # tests/web/test_hardening.py: Starlette rebuilds it when it is None
_.log_message  # tests/deploy/test_nginx_lb.py: http.server's logging hook, silenced
_.do_GET  # tests/deploy/test_nginx_lb.py: http.server's handler of GET
_.do_POST  # tests/deploy/test_nginx_lb.py: http.server's handler of POST
