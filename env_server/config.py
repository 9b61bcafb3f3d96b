"""Server settings: the one place defaults live. Built once at the CLI edge, passed down."""

from __future__ import annotations

import datetime as dt
from enum import Enum
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

from env_server.scoring.rules import Grading
from env_server.search import SearchRanking
from env_server.simulators.base import DEFAULT_TODAY
from state.store import Durability

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
DEFAULT_PAGE_SIZE = 200
FREE_SESSION = "free"
KIB = 1024
MIB = 1024 * KIB
DEFAULT_STDIO_MAX_LINE_BYTES = 4 * 1024 * 1024
DEFAULT_MAX_ENVS = 4096
DEFAULT_ENV_IDLE_TIMEOUT_S = 1800.0
DEFAULT_MAX_BATCH = 512

# HTTP transport. uvicorn closes an idle connection after 5 s by default; a Node MCP client
# spends ~7 s compiling validators after listing the full catalog, and its next call then
# lands on the closed socket ("fetch failed"). 120 s outlives that listing.
HTTP_KEEP_ALIVE_S = 120

# The MCP ``instructions`` every endpoint sends; the user channel adds its own after them.
BASE_INSTRUCTIONS = (
    "Simulated public-API tools. Every call is logged. On the free-play endpoint, "
    "call search_tools(query) to find the right tool among the whole catalog."
)


class LogLevel(str, Enum):
    """Log level of ``toolenv serve``; the SDK's per-request lines show only at debug."""

    DEBUG = "debug"
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


class ServerSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    db_path: Path | None = Field(default=None, description="DuckDB file; None means the user data dir.")
    catalog_paths: list[Path] = Field(default_factory=list, description="Empty means the built-in catalog.")
    page_size: int = Field(default=DEFAULT_PAGE_SIZE, ge=1, description="tools/list page size with a cursor.")
    seed: int = Field(default=0, description="Seed of the free-play session.")
    today: dt.date = Field(default=DEFAULT_TODAY, description="Current date of the free-play session.")
    durability: Durability = Field(
        default=Durability.JOURNAL,
        description=(
            "journal: each call is journaled before its response and batched into DuckDB; "
            "per_call: one DuckDB transaction per call; deferred: in memory until flush; "
            "ephemeral: never written, sessions in memory only (in-process RL)."
        ),
    )
    fsync: bool = Field(
        default=False,
        description=(
            "journal durability only: sync each call's journal line to disk before its response, so "
            "answered calls survive a power loss too (a killed process loses nothing either way); one disk "
            "sync per call."
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
    # JSON-RPC envelopes (envelopes.py)
    stdio_max_line_bytes: int = Field(
        default=DEFAULT_STDIO_MAX_LINE_BYTES, ge=1024,
        description="Longest stdio message line; a longer one gets a -32600 reply and is skipped.",
    )
    # RL envs over REST (/v1/envs): a bounded registry.
    max_envs: int = Field(default=DEFAULT_MAX_ENVS, ge=1,
                          description="Open RL envs at most; a create or fork past it answers 429.")
    env_idle_timeout: float = Field(default=DEFAULT_ENV_IDLE_TIMEOUT_S, gt=0,
                                    description="Seconds without a request after which an RL env is freed.")
    max_batch: int = Field(default=DEFAULT_MAX_BATCH, ge=1,
                           description="Most items in one /v1/envs/batch/reset or /batch/step request; more is 422.")
    rl_plane: bool = Field(
        default=True,
        description=(
            "Serve the RL env routes (/v1/envs). Envs over evaluation scenarios need the admin token "
            "either way; False leaves the routes out (404)."
        ),
    )
    # HTTP transport: keep-alive, DNS-rebinding protection, logging.
    keep_alive_s: int = Field(
        default=HTTP_KEEP_ALIVE_S, ge=1, description="Seconds an idle HTTP keep-alive connection stays open.")
    allowed_hosts: list[str] = Field(
        default_factory=list,
        description=("Host header values accepted besides loopback names (NAME: any port, NAME:PORT: that port). "
                     "Any other Host gets 421."))
    allowed_origins: list[str] = Field(
        default_factory=list,
        description=("Origin header values accepted besides loopback origins, e.g. 'https://app.example.com' "
                     "('http://NAME:*': any port). A request without Origin is accepted; any other Origin gets 403."))
    log_level: LogLevel = Field(default=LogLevel.INFO, description="Log level of the HTTP server process.")
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

    # -- grading of native scenarios (scoring/rules.py) --
    grading: Grading = Field(
        default=Grading.NATIVE,
        description=("native: gold calls of native scenarios are matched with their per-argument match rules; "
                     "official: the official WildToolBench checker alone (rules ignored)."))

    # -- search_tools --
    search_ranking: SearchRanking = Field(
        default=SearchRanking.LEXICAL,
        description=("lexical: search_tools ranks by words (BM25F, synonyms, intent); hybrid: fused with "
                     "sentence-embedding similarity (the 'semantic' extra; without it, lexical)."))

    @model_validator(mode="after")
    def _fsync_needs_the_journal(self) -> ServerSettings:
        if self.fsync and self.durability is not Durability.JOURNAL:
            raise ValueError(f"fsync applies to journal durability only, not {self.durability.value}")
        return self
