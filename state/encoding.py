"""The JSON encoders of the serving path, each a ``json.JSONEncoder`` built once.

A tool call encodes four or five small documents (canonical arguments, the result, the
journal line, the call seed's text). ``json.dumps`` with any non-default option builds a
new ``JSONEncoder`` on every call; these are built at import time, and each one's
``encode`` gives exactly the text of the ``json.dumps`` call named in its docstring
(``tests/state/test_encoding.py`` checks), because ``json.dumps`` is that same encoder's
``encode``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

Encode = Callable[[Any], str]

encode_text: Encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode
"""``json.dumps(value, ensure_ascii=False, allow_nan=False)``: results as agents and the call
log see them. NaN and Infinity are not JSON, so they raise ``ValueError`` here instead of
reaching an agent as bare ``NaN``; the other encoders write them as ``json.dumps`` does
(journal lines and keys are read back by ``json.loads``, which accepts them)."""

encode_compact: Encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
"""``json.dumps(value, separators=(",", ":"), ensure_ascii=False)``: journal lines, bulk documents."""

encode_canonical: Encode = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
"""``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``."""

encode_canonical_lenient: Encode = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str).encode
"""As ``encode_canonical`` with ``default=str``: values that are not JSON become strings."""
