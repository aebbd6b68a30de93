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
from duelclub.i18n import ngettext
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
    about one field (:func:`field_words`, after the field's name: ``"game: обязательное поле"``).

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


def field_words(err: dict[str, Any]) -> str:
    """What is wrong with one field, in the reader's language, for Pydantic's common error types (the
    ``type`` and ``ctx`` of ``ValidationError.errors()``); Pydantic's own English words for the rest."""
    kind, ctx = err.get("type"), err.get("ctx") or {}
    fixed = {
        "missing": _("обязательное поле"),
        "extra_forbidden": _("лишнее поле"),
        "string_type": _("нужна строка"),
        "int_type": _("нужно целое число"),
        "int_parsing": _("нужно целое число"),
        "int_from_float": _("нужно целое число"),
        "bool_type": _("нужно true или false"),
        "bool_parsing": _("нужно true или false"),
        "list_type": _("нужен список"),
        "dict_type": _("нужен объект JSON"),
        "model_type": _("нужен объект JSON"),
        "string_pattern_mismatch": _("неверный формат"),
    }
    if kind in fixed:
        return fixed[kind]
    if kind == "string_too_long":  # «не длиннее 21 символа», «… 40 символов»: the genitive after «длиннее»
        n = int(ctx.get("max_length", 0))
        return ngettext(
            "не длиннее %(n)s символа", "не длиннее %(n)s символов", "не длиннее %(n)s символов", n
        )
    if kind == "string_too_short":
        n = int(ctx.get("min_length", 0))
        return ngettext("не короче %(n)s символа", "не короче %(n)s символов", "не короче %(n)s символов", n)
    bounds = {
        "greater_than_equal": ("ge", _("не меньше %(n)s")),
        "less_than_equal": ("le", _("не больше %(n)s")),
    }
    if kind in bounds:
        key, words = bounds[kind]
        return words % {"n": ctx.get(key)}
    if kind in ("literal_error", "enum"):
        return _("допустимо: %(values)s", values=ctx.get("expected", ""))
    return str(err.get("msg", "invalid"))


def _validation_message(exc: RequestValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return "invalid request"
    err = errors[0]
    whole = body_message(err)
    if whole is not None:
        return whole
    loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
    msg = field_words(err)
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
