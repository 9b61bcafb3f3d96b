"""What the REST plane's OpenAPI schema promises: error answers, and JSON's own integers.

Every 4xx the control plane sends has one body shape, ``{"detail": ...}``: a one-line reason
from our own checks, or FastAPI's list of field errors when a body fails its schema. Routes
declare the codes they can answer with ``error_responses``; the app declares the ones its
middleware can send on any route (``APP_ERRORS``: a foreign Host or Origin, an oversized body),
so the published schema matches what a client actually receives.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, Field


def json_integer(value: Any) -> Any:
    """JSON Schema's ``integer``: a number with no fraction (``3`` or ``3.0``), never a
    boolean or a numeric string, which pydantic's lax mode would take."""
    if isinstance(value, (bool, str, bytes)):
        raise ValueError("must be an integer")
    return value


# Integer fields of request bodies. A field's bounds go inside the Annotated, before the
# validator, so the schema states them as minimum/maximum.
Seed = Annotated[int, Field(ge=0, le=2**53), BeforeValidator(json_integer)]
"""A seed: a non-negative integer every JSON reader holds exactly (a double's 53 bits)."""
AtLeastOne = Annotated[int, Field(ge=1), BeforeValidator(json_integer)]
"""A count or budget of one or more."""
# Session ids appear in URL paths (/sessions/{id}/mcp); "free" names the free-play session.
SESSION_ID_PATTERN = r"^[A-Za-z0-9_-]{1,128}$"


class ErrorBody(BaseModel):
    """A 4xx answer: ``detail`` is one line, or a list of field errors for a malformed body."""

    detail: str | list[dict[str, Any]] = Field(
        description="Why the request was refused: one line, or FastAPI's field errors for a body that fails its schema."
    )


_MEANINGS = {
    401: "The admin token is missing or malformed (routes that reveal gold).",
    403: "The admin token is wrong, or the request's Origin is not allowed (DNS-rebinding protection).",
    404: "No such session, env or scenario (never created, or deleted).",
    409: "The resource exists but cannot do that now (finished, owned by another plane, id taken).",
    413: "The request body is larger than the server's limit.",
    421: "The request's Host is not served here (DNS-rebinding protection).",
    422: "The body is malformed or names something the server does not have.",
    429: "The server holds its maximum of open envs.",
}


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` entries for ``codes``, each with the ``ErrorBody`` schema."""
    return {code: {"model": ErrorBody, "description": _MEANINGS[code]} for code in codes}


APP_ERRORS = error_responses(403, 413, 421)
"""What the app's middleware can answer on any route (``http_guard.py``, ``body_limit.py``)."""
