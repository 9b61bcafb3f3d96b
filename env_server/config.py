"""Server settings: the one place defaults live. Built once at the CLI edge, passed down."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from env_server.simulators.base import DEFAULT_TODAY
from state.store import Durability

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
DEFAULT_PAGE_SIZE = 200
FREE_SESSION = "free"
KIB = 1024
MIB = 1024 * KIB


class ServerSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    db_path: Path | None = Field(default=None, description="DuckDB file; None means the user data dir.")
    catalog_paths: list[Path] = Field(default_factory=list, description="Empty means the built-in catalog.")
    page_size: int = Field(default=DEFAULT_PAGE_SIZE, ge=1, description="tools/list page size with a cursor.")
    seed: int = Field(default=0, description="Seed of the free-play session.")
    today: dt.date = Field(default=DEFAULT_TODAY, description="Current date of the free-play session.")
    strict_params: bool = Field(default=True, description="Reject parameters the schema does not declare.")
    durability: Durability = Field(
        default=Durability.JOURNAL,
        description=(
            "journal: each call is journaled before its response and batched into DuckDB; "
            "per_call: one DuckDB transaction per call; deferred: in memory until flush; "
            "ephemeral: never written, sessions in memory only (in-process RL)."
        ),
    )
    stdio_session: str = Field(default=FREE_SESSION, description="Session served on stdio.")
    admin_token: str | None = Field(
        default=None,
        description=(
            "Bearer token for routes that reveal judgement (scenario results, call matching). "
            "None: the HTTP app generates one at start (toolenv serve prints it)."
        ),
    )
    # -- size limits: no request amplifies into an unbounded answer or log row --------------
    max_arg_chars: int = Field(
        default=64 * KIB, ge=1,
        description="Longest string an argument may hold, at any depth; longer is an isError naming the parameter.")
    max_rest_body_bytes: int = Field(
        default=1 * MIB, ge=1, description="Largest REST (/v1/...) request body; larger is HTTP 413.")
    max_mcp_body_bytes: int = Field(
        default=4 * MIB, ge=1, description="Largest MCP-over-HTTP request body; larger is HTTP 413 (the MCP SDK's check).")
    max_logged_json_chars: int = Field(
        default=256 * KIB, ge=256,
        description="Arguments or a result longer than this as JSON are logged as a marker with their size and SHA-256.")
