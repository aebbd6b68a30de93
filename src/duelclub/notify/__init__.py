"""Notices off the site (DESIGN.md §Notices, issue 28): e-mail now, Web Push later.

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

Imports point down only: web/ → notify/ → store/ (play/ may use it for turn notices).
"""
