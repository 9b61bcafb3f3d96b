"""JSON encoders (and SHA-256) for the serving hot path, set up once.

``json.dumps`` with any non-default option builds a ``JSONEncoder`` and then a C encoder
on every call; a tool call encodes four or five small documents (canonical arguments,
the result, the journal line, the call seed's text), and in a server whose caches are
cold between requests that setup costs more than the encoding itself. The functions
here call one C encoder made at import time and produce exactly the bytes of the
``json.dumps`` call named in each docstring (``tests/state/test_encoding.py`` checks).

The C encoders run without circular-reference checks: everything encoded here is
decoded JSON or simulator output, which has no cycles. A cycle would end in
``RecursionError`` instead of ``ValueError``. Where the C accelerator is missing (other
Python builds), ``json.dumps`` is used as is.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]  # private, not in typeshed
from typing import Any

try:
    # CPython's own SHA-256 (``_sha2`` from 3.12, ``_sha256`` before): the same digest as
    # ``hashlib.sha256``, without OpenSSL's per-call provider lookup, which a server with
    # cold caches pays ~10 us for on every call seed.
    from _sha2 import sha256 as sha256  # type: ignore[import-not-found]  # re-exported; 3.12+, mypy checks 3.11
except ImportError:
    try:
        from _sha256 import sha256 as sha256  # type: ignore[import-not-found]  # re-exported; not in typeshed
    except ImportError:  # pragma: no cover - a build without the built-in modules
        from hashlib import sha256 as sha256  # re-exported

Encode = Callable[[Any], str]


def _not_serializable(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _make(
    *, sort_keys: bool, compact: bool, default: Callable[[Any], Any] | None = None, allow_nan: bool = True
) -> Encode:
    key_sep, item_sep = (":", ",") if compact else (": ", ", ")
    if c_make_encoder is None:  # pragma: no cover - CPython always has it
        def slow(value: Any) -> str:
            return json.dumps(value, sort_keys=sort_keys, separators=(item_sep, key_sep), ensure_ascii=False,
                              default=default, allow_nan=allow_nan)
        return slow
    encoder = c_make_encoder(None, default or _not_serializable, encode_basestring, None, key_sep, item_sep,
                             sort_keys, False, allow_nan)

    def encode(value: Any) -> str:
        if isinstance(value, str):
            return encode_basestring(value)
        return "".join(encoder(value, 0))

    return encode


encode_text: Encode = _make(sort_keys=False, compact=False, allow_nan=False)
"""``json.dumps(value, ensure_ascii=False, allow_nan=False)``: results as agents and the call
log see them. NaN and Infinity are not JSON, so they raise ``ValueError`` here instead of
reaching an agent as bare ``NaN``; the other encoders write them as ``json.dumps`` does
(journal lines and keys are read back by ``json.loads``, which accepts them)."""

encode_compact: Encode = _make(sort_keys=False, compact=True)
"""``json.dumps(value, separators=(",", ":"), ensure_ascii=False)``: journal lines, bulk documents."""

encode_canonical: Encode = _make(sort_keys=True, compact=True)
"""``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``."""

encode_canonical_lenient: Encode = _make(sort_keys=True, compact=True, default=str)
"""As ``encode_canonical`` with ``default=str``: values that are not JSON become strings."""
