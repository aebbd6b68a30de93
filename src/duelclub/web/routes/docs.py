"""The API docs, offline (issue 13 §1.7): ``/docs`` (Swagger UI) and ``/redoc`` (ReDoc) ``/openapi.json``.

FastAPI's own pages load Swagger UI from a CDN and start it with an inline script: the app's CSP blocks both
(a blank page), and a club server may have no internet at all. Here the assets come from the PyPI package
``fastapi-offline`` (Swagger UI and ReDoc builds, refreshed with each release), served by this app under
:data:`ASSETS_URL`, and the page starts Swagger UI from ``static/js/api_docs.js`` — nothing inline, so the
CSP stays as strict as everywhere else (ReDoc's page adds a per-response style nonce, see :func:`redoc`).
"""

from __future__ import annotations

import secrets
from html import escape
from pathlib import Path

import fastapi_offline
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from duelclub.web.middleware import CSP

router = APIRouter(include_in_schema=False)
ASSETS_URL = "/static/api-docs"
ASSETS_DIR = Path(fastapi_offline.__file__).resolve().parent / "static"


REDOC_STYLE_HASHES = (
    "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",  # an empty <style>, filled through the CSSOM
    "'sha256-QMIg+bpjm3JdElJ388KYke01izlUW0UoNOeKjpMxdgc='",  # the fixed style ReDoc's bundle starts with
)
"""The ``<style>`` elements ReDoc creates before it knows the nonce (fastapi-offline 1.7.7's build)."""
REDOC_CDN_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"


@router.get(f"{ASSETS_URL}/redoc.standalone.js")
def redoc_bundle() -> Response:
    """ReDoc's bundle, with its one outside address — the «API docs by Redocly» logo on a CDN, which the CSP
    refuses (a console error on every load) — pointed at the local favicon instead."""
    global _redoc_js
    if _redoc_js is None:
        _redoc_js = (
            (ASSETS_DIR / "redoc.standalone.js")
            .read_bytes()
            .replace(REDOC_CDN_LOGO, f"{ASSETS_URL}/favicon.png".encode())
        )
    return Response(
        _redoc_js, media_type="text/javascript", headers={"cache-control": "public, max-age=3600"}
    )


_redoc_js: bytes | None = None


def assets() -> StaticFiles:
    """The Swagger UI and ReDoc files, to mount at :data:`ASSETS_URL` (before ``/static``)."""
    return StaticFiles(directory=ASSETS_DIR)


def _page(title: str, head: str, body: str) -> HTMLResponse:
    return HTMLResponse(
        f"""<!doctype html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="icon" href="{ASSETS_URL}/favicon.png">
{head}
</head>
<body>
{body}
</body>
</html>
"""
    )


@router.get("/docs")
def swagger_ui(request: Request) -> HTMLResponse:
    """Swagger UI over ``/openapi.json``, from local files."""
    spec = escape(request.app.openapi_url or "/openapi.json")
    return _page(
        "duelclub — API",
        f'<link rel="stylesheet" href="{ASSETS_URL}/swagger-ui.css">',
        f'<div id="swagger-ui" data-spec-url="{spec}"></div>\n'
        f'<script src="{ASSETS_URL}/swagger-ui-bundle.js"></script>\n'
        '<script src="/static/js/api_docs.js"></script>',
    )


@router.get("/redoc")
def redoc(request: Request) -> HTMLResponse:
    """ReDoc over ``/openapi.json``, from local files (started by ``static/js/api_docs.js``).

    ReDoc styles itself with ``<style>`` elements it creates (styled-components): this page's CSP is the
    app's with one addition, a fresh nonce for styles that ReDoc puts on those elements (its ``nonce``
    option) and the hashes of the two it makes before it reads its options — still no ``'unsafe-inline'``.
    Its search (a ``blob:`` worker, which the CSP refuses) is off."""
    spec = escape(request.app.openapi_url or "/openapi.json")
    nonce = secrets.token_urlsafe(16)
    page = _page(
        "duelclub — API (ReDoc)",
        "",
        f'<div id="redoc" data-spec-url="{spec}" data-style-nonce="{nonce}"></div>\n'
        f'<script src="{ASSETS_URL}/redoc.standalone.js"></script>\n'
        '<script src="/static/js/api_docs.js"></script>',
    )
    page.headers["content-security-policy"] = CSP.replace(
        "style-src 'self'", f"style-src 'self' 'nonce-{nonce}' {' '.join(REDOC_STYLE_HASHES)}"
    )
    return page
