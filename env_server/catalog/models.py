"""Pydantic models for the tool catalog.

Two layers:

* ``ProviderSpec`` / ``FunctionSpec`` / ``ProfileSpec`` are our native *file format*
  (``tool_specs/catalog/<category>/<provider>.json``). They forbid unknown keys so a
  typo in a spec file is an error, not a silently ignored field.
* ``ToolSpec`` is the normalized, in-memory form every loader produces, whatever the
  source format. The server, the simulators and the checks only ever see ``ToolSpec``.
"""

from __future__ import annotations

import functools
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Operation(str, Enum):
    """What a tool does to its entity; drives the simulator and the world state."""

    READ = "read"
    SEARCH = "search"
    LIST = "list"
    CREATE = "create"
    UPDATE = "update"
    DELETE = "delete"
    ACTION = "action"

    @property
    def writes(self) -> bool:
        return self in (Operation.CREATE, Operation.UPDATE, Operation.DELETE)


class UnknownIdPolicy(str, Enum):
    """How a read/update/delete answers an id the world never produced."""

    ERROR = "error"
    ACCEPT = "accept"


class SourceFormat(str, Enum):
    NATIVE = "native"
    WILDTOOLBENCH = "wildtoolbench"
    OPENAI = "openai"
    ANTHROPIC = "anthropic"
    TOOLALPACA = "toolalpaca"


class ProfileSpec(BaseModel):
    """Simulation profile: how a function maps onto an entity in the simulated world."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    operation: Operation = Field(description="Kind of operation the function performs.")
    entity: str = Field(description="Singular snake_case noun of the entity read or written, e.g. 'show'.")
    family: str | None = Field(
        default=None,
        description="API family whose ids are shared between tools; defaults to the provider slug.",
    )
    id_param: str | None = Field(
        default=None, description="Input parameter that carries the entity id (read/update/delete)."
    )
    id_field: str | None = Field(
        default=None, description="Output field that carries the entity id ('id' when unset)."
    )
    filter_params: list[str] = Field(
        default_factory=list, description="Input parameters that filter a search or list."
    )
    collection: str | None = Field(
        default=None, description="Output property holding the array of results (search/list)."
    )
    hints: dict[str, str] = Field(
        default_factory=dict,
        description="Output field name -> value kind, overriding the simulator's name-based guess.",
    )
    unknown_ids: UnknownIdPolicy | None = Field(
        default=None,
        description="Answer for ids never produced: 'error' (a 404-like tool error) or 'accept'.",
    )
    place: str | None = Field(
        default=None,
        description="Where the API's records are when a call names no place: an ISO 3166 alpha-2 country "
        "code (its capital) or a city, inferred from an imported description ('schools in Switzerland': CH).",
    )
    inferred: bool = Field(default=False, description="True when the profile was inferred, not written.")


class FunctionSpec(BaseModel):
    """One function of a provider, as written in a native spec file."""

    model_config = ConfigDict(extra="forbid")

    name: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]
    profile: ProfileSpec


class ProviderSpec(BaseModel):
    """One native spec file: an API provider and its functions."""

    model_config = ConfigDict(extra="forbid")

    provider: str = Field(description="Display name of the API, e.g. 'Open-Meteo'.")
    description: str
    category: str
    link: str | None = None
    auth: str | None = Field(default=None, description="Auth the real API uses: none, apiKey, OAuth.")
    functions: list[FunctionSpec] = Field(min_length=1)


class NormalizationRecord(BaseModel):
    """One change a loader made to an imported schema, kept for `specs check`."""

    model_config = ConfigDict(frozen=True)

    path: str
    change: str


class ToolSpec(BaseModel):
    """A tool in normalized form, whatever file format it came from."""

    model_config = ConfigDict(frozen=True)

    name: str
    description: str
    category: str
    provider: str
    source: SourceFormat
    origin: str = Field(description="File (and line) the spec was loaded from.")
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]
    profile: ProfileSpec
    normalizations: tuple[NormalizationRecord, ...] = ()
    link: str | None = Field(default=None, description="The provider's documentation link (native specs).")
    base_name: str | None = Field(
        default=None,
        description="Original name when the tool was renamed to keep a second signature addressable.",
    )

    @property
    def family(self) -> str:
        return self.profile.family or slugify(self.provider)


@functools.lru_cache(maxsize=4096)
def slugify(text: str) -> str:
    """Lowercase ascii slug with underscores, used for families and file names."""
    out: list[str] = []
    for ch in text.lower():
        if ch.isascii() and ch.isalnum():
            out.append(ch)
        elif out and out[-1] != "_":
            out.append("_")
    return "".join(out).strip("_") or "api"
