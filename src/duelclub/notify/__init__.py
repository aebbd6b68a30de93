"""Notices off the site (DESIGN.md §Notices, issue 28): e-mail and Web Push.

- ``addresses.py`` — what an address, a ``From`` and a header value may be (no CR/LF: no header injection).
- ``tokens.py`` — signed single-use link tokens (the rows are store/account_tokens.py).
- ``compose.py`` — the mails' words (Russian msgids, Ukrainian catalog), rendered in the member's
  language into an outbox row (store/outbox.py) in the transaction that causes them.
- ``accounts.py`` — the account operations that mail: registration with an address, changing or removing
  it, confirming it, asking for and using a password reset.
- ``smtp.py`` — ``SMTP_URL`` and the transports: aiosmtplib, or the log when no SMTP server is configured.
- ``sender.py`` — the background sender of each web worker: leases due rows, sends, retries with backoff.
- ``notice_types.py``, ``dispatch.py``, ``notice_mail.py``, ``unsubscribe.py`` — turn notices (§3, §4):
  the typed notices, the channels that carry them (e-mail; Web Push plugs in), the mails' words, and the
  signed one-click unsubscribe link. play/notices.py decides who is owed one.
- ``vapid.py`` — the site's Web Push key pair (``VAPID_*``: generated into the data directory when unset).
- ``push.py`` — what a browser's push subscription may be, and ``queue_push`` (one push per cause and
  browser, written in the caller's transaction; store/push.py keeps the rows).
- ``background.py`` — the loop of a background sender; ``push_sender.py`` — the push sender on it
  (pywebpush: RFC 8291 encryption, RFC 8292 VAPID), leased and retried like the mail.

Imports point down only: web/ → notify/ → store/ (play/ may use it for turn notices).
"""
