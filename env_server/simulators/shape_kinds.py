"""Kinds for fields whose shape, not their topic, fixes the value.

* **pages**: ``currentPage`` and ``totalPages`` are page numbers (``paging.answer_pages``
  then makes them agree with the rows and the call);
* **pixels**: an image's ``width`` and ``height`` are one of the sizes images come in, the
  two of one record from the same size;
* **two-sided quotes**: ``bid`` sits a spread below the record's price, ``ask`` above it;
* **data sources**: a ``connectionString`` is a DSN of the record's engine
  (``postgresql://analytics-db.internal:5432/warehouse``) and its ``type`` that engine;
* **scripture**: a verse's text, from ``tool_specs/vocab/verse_text.json``.

Names that mean only this (``total_pages``, ``connection_string``) are rules here; names that
mean it only beside their siblings (``open`` beside ``close``, ``type`` beside a DSN) get
these kinds as hints from ``catalog.shape_hints``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# (width, height) of images as services size them: photos, thumbnails, wallpapers, squares.
_IMAGE_SIZES = ((1920, 1080), (1280, 720), (1024, 768), (800, 600), (640, 480), (1080, 1080), (500, 500),
                (1200, 800), (1600, 1200), (2048, 1365), (750, 1000), (1080, 1350), (400, 300), (300, 225),
                (3000, 2000), (4032, 3024), (720, 960), (600, 400))
# Data-source engines: (type as the tool names it, DSN scheme, default port, database names).
_ENGINES = (
    ("postgres", "postgresql", 5432), ("mysql", "mysql", 3306), ("mssql", "mssql+pyodbc", 1433),
    ("oracle", "oracle", 1521), ("snowflake", "snowflake", 443), ("redshift", "redshift", 5439),
    ("clickhouse", "clickhouse", 8123), ("bigquery", "bigquery", 0), ("sqlite", "sqlite", 0),
    ("trino", "trino", 8080), ("mariadb", "mariadb", 3306), ("druid", "druid", 8082),
)
_HOSTS = ("analytics-db.internal", "db-prod-1.corp.local", "warehouse.internal", "10.20.4.17", "reporting-replica",
          "pg-main.service.consul", "bi-db.example.net", "localhost")
_DATABASES = ("warehouse", "analytics", "sales", "reporting", "events", "finance", "marketing", "product", "core")


def _image_size(gen: Generation) -> tuple[int, int]:
    size: tuple[int, int] = gen.scope.once("image_size", lambda: gen.rng.choice(_IMAGE_SIZES))
    return size


def _engine(gen: Generation) -> tuple[str, str, int]:
    named = next((v.lower() for k, v in gen.snaked_args.items()
                  if k in ("type", "engine", "database_type", "source_type") and isinstance(v, str)), None)
    match = next((e for e in _ENGINES if named and (named in e[0] or e[0] in named)), None)
    engine: tuple[str, str, int] = gen.scope.once("dsn_engine", lambda: match or gen.rng.choice(_ENGINES))
    return engine


def _dsn(gen: Generation) -> str:
    kind, scheme, port = _engine(gen)
    db = gen.rng.choice(_DATABASES)
    if kind == "sqlite":
        return f"sqlite:////var/lib/data/{db}.db"
    if kind == "bigquery":
        return f"bigquery://{db}-project-{gen.rng.randint(100, 999)}/{db}"
    user = gen.rng.choice(("superset", "readonly", "analyst", "bi_user"))
    return f"{scheme}://{user}@{gen.rng.choice(_HOSTS)}:{port}/{db}"


def _two_sided(gen: Generation, side: int) -> float:
    """A bid (side -1) or ask (+1) about the record's price, a few basis points apart."""
    price = gen.quote_price("close")
    spread: float = gen.scope.once("spread_bp", lambda: gen.rng.uniform(2, 25))
    value = price * (1 + side * spread / 20000)
    return round(value, 2 if value >= 100 else 4 if value >= 1 else 6)


def _page(gen: Generation) -> int:
    asked = next((v for k, v in gen.snaked_args.items() if k in ("page", "page_number", "current_page")
                  and type(v) is int and v > 0), None)
    return asked or 1


SHAPE_KINDS: dict[str, Callable[[Generation], Any]] = {
    "page_number": _page,
    "page_count": lambda g: _page(g) + g.rng.randint(0, 12),
    "image_width": lambda g: _image_size(g)[0],
    "image_height": lambda g: _image_size(g)[1],
    "price_bid": lambda g: _two_sided(g, -1),
    "price_ask": lambda g: _two_sided(g, 1),
    "datasource_dsn": _dsn,
    "datasource_type": lambda g: _engine(g)[0],
    "price_close": lambda g: g.quote_price("close"),
}

SHAPE_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p), k)
    for p, k in [
        (r"^(current_page|page_number|page_num|curr_page)$", "page_number"),
        (r"^(total_pages|page_count|num_pages|pages_total|nb_pages)$", "page_count"),
        (r"^(image|img|photo|picture|thumbnail|thumb|media)_width$|^(width_px|pixel_width)$", "image_width"),
        (r"^(image|img|photo|picture|thumbnail|thumb|media)_height$|^(height_px|pixel_height)$", "image_height"),
        (r"^(connection_string|connection_uri|connection_url|dsn|database_url|sqlalchemy_uri|jdbc_url)$",
         "datasource_dsn"),
    ]
]
