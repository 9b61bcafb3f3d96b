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
            "Bearer token for routes that reveal gold (scenario results and call matching, RL envs "
            "over evaluation scenarios, fork/reset of their sessions). "
            "None: the HTTP app generates one at start (toolenv serve prints it)."
        ),
    )
    rl_plane: bool = Field(
        default=True,
        description=(
            "Serve the RL env routes (/v1/envs). Envs over evaluation scenarios need the admin token "
            "either way; False leaves the routes out (404)."
        ),
    )
