"""API errors: every failure is ``{"code", "message"}`` with a stable machine code.

Handlers installed by :func:`install_error_handlers` turn :class:`ApiError`, the match service's
:class:`PlayError`, request validation errors (422 ``malformed``), plain HTTP errors (``not_found``,
``method_not_allowed``, …) and crashes (500 ``internal``) into that shape; a database outage is 503
``store_unavailable`` with ``Retry-After`` (web/outage.py, issue 31 §2).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from duelclub.i18n import gettext as _
from duelclub.play.errors import PlayError
from duelclub.web.outage import RETRY_AFTER_SECONDS, install_outage_handlers
from duelclub.web.strictjson import NUL_REFUSED

_HTTP_CODES = {
    400: "bad_request",
    401: "not_authenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "malformed",
    429: "rate_limited",
}


class ApiError(Exception):
    """An error response ``status`` with body ``{"code": code, "message": message}``."""

    def __init__(
        self, status: int, code: str, message: str = "", *, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message or code.replace("_", " ")
        self.headers = headers


def error_body(code: str, message: str) -> dict[str, str]:
    return {"code": code, "message": message}


def body_message(err: dict[str, Any]) -> str | None:
    """What is wrong with the request body as a whole, in the reader's language, or None when the error is
    about one field (its words stay Pydantic's, ``"game: Field required"``).

    - no body at all (an empty POST to a route that takes one): «Нет тела запроса: нужен объект JSON.» —
      FastAPI reports it as the top-level body ``missing``, which alone read «Field required»;
    - a body that is not JSON (``json_invalid``, at character ``loc[1]``), a NUL escape apart;
    - JSON that is not an object (``null``, a list, a string)."""
    loc = tuple(err.get("loc", ()))
    kind = err.get("type")
    if kind == "json_invalid":
        if (err.get("ctx") or {}).get("error") == NUL_REFUSED:
            return _("Тело запроса содержит символ NUL: он не принимается.")
        at = loc[1] if len(loc) > 1 else 0
        return _("Тело запроса — не JSON (ошибка у символа %(at)s).", at=at)
    if loc != ("body",):
        return None
    if kind == "missing":
        return _("Нет тела запроса: нужен объект JSON.")
    if kind in ("model_attributes_type", "dict_type"):
        return _("Тело запроса должно быть объектом JSON.")
    return None


def _validation_message(exc: RequestValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return "invalid request"
    err = errors[0]
    whole = body_message(err)
    if whole is not None:
        return whole
    loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
    msg = str(err.get("msg", "invalid"))
    return f"{loc}: {msg}" if loc else msg


def install_error_handlers(app: FastAPI) -> None:
    """Register the ``{"code","message"}`` handlers on ``app``."""

    async def api_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiError)
        return JSONResponse(error_body(exc.code, exc.message), status_code=exc.status, headers=exc.headers)

    async def validation_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return JSONResponse(error_body("malformed", _validation_message(exc)), status_code=422)

    async def http_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        code = _HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}")
        return JSONResponse(
            error_body(code, str(exc.detail)), status_code=exc.status_code, headers=exc.headers
        )

    async def play_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, PlayError)
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS)} if exc.status == 503 else None
        return JSONResponse(error_body(exc.code, exc.message), status_code=exc.status, headers=headers)

    async def internal_error(_request: Request, _exc: Exception) -> JSONResponse:
        return JSONResponse(error_body("internal", "internal server error"), status_code=500)

    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(PlayError, play_error)
    app.add_exception_handler(Exception, internal_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    install_outage_handlers(app)
