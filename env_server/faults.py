"""Seeded fault injection: tools that answer like failing real APIs, the same way on every run.

A session created with ``faults`` (:class:`FaultOptions`, or a profile name from
:data:`PROFILES`) gets a :class:`FaultInjector`. Before a call to one of the session's tools
runs, the injector hashes (fault seed, call index, tool name, canonical arguments); the call
index counts the session's drawn calls, so the draw depends only on the seed and the call
sequence, never on wall time or a global RNG. The call then meets three layers in turn, as a
request to a real API does, each failing it with its own probability from its own slice of the
hash: the rate limiter (``rate_limit``: 429 with ``retry_after`` seconds), the gateway
(``timeout``: a timeout-like 504 after ``slow_ms`` milliseconds) and the server
(``server_error``: 503). A call no layer fails runs. So ``rate_limit`` is the share of calls
answered 429, ``timeout`` the share of the rest that time out, and so on.

A faulted call never reaches the simulator (no state changes), is logged with error kind
``fault``, and is never judged: the matcher and the graders do not see it. Its body
(:meth:`Fault.body`) is the ``isError`` result the agent sees::

    {"error": {"status": 429, "code": "rate_limited", "message": "...", "retry_after": 2}}
    {"error": {"status": 503, "code": "service_unavailable", "message": "..."}}
    {"error": {"status": 504, "code": "timeout", "message": "...", "timeout_ms": 250}}

``retry_after`` is advisory: waiting is not enforced (that would need wall time), and whether
a retry faults again depends only on the draw.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

from env_server.rest_contract import Seed, json_integer

FAULT_META_KEY = "toolenv/fault"  # the result's ``_meta`` key naming an injected fault's code
MAX_SLOW_MS = 60_000

Probability = Annotated[float, Field(ge=0.0, le=1.0)]
ProfileName = Literal["flaky", "degraded"]


class FaultCode(str, Enum):
    RATE_LIMITED = "rate_limited"
    TIMEOUT = "timeout"
    SERVICE_UNAVAILABLE = "service_unavailable"


STATUS_OF = {FaultCode.RATE_LIMITED: 429, FaultCode.TIMEOUT: 504, FaultCode.SERVICE_UNAVAILABLE: 503}


class FaultOptions(BaseModel):
    """How often a session's tools fail, and how. ``profile`` starts from a named profile."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    profile: ProfileName | None = Field(default=None,
                                description="A named profile (flaky, degraded) whose values the other fields override.")
    seed: Seed = Field(default=0, description="Fault seed: the same seed and call sequence fault the same calls.")
    rate_limit: Probability = Field(default=0.0, description="Probability a call answers 429 with retry_after.")
    timeout: Probability = Field(default=0.0, description="Probability a call times out (504 after slow_ms).")
    server_error: Probability = Field(default=0.0, description="Probability a call answers 503.")
    slow_ms: Annotated[int, Field(ge=0, le=MAX_SLOW_MS), BeforeValidator(json_integer)] = Field(
        default=0, description="Milliseconds a timeout takes to answer (the wait never blocks the server).")
    max_retry_after: Annotated[int, Field(ge=1, le=3600), BeforeValidator(json_integer)] = Field(
        default=3, description="retry_after of a 429 is drawn from 1..max_retry_after seconds.")

    @model_validator(mode="before")
    @classmethod
    def _start_from_profile(cls, data: Any) -> Any:
        if isinstance(data, str):
            data = {"profile": data}
        if isinstance(data, dict) and data.get("profile") is not None:
            name = data["profile"]
            if name not in PROFILES:
                raise ValueError(f"unknown fault profile {name!r}; profiles: {', '.join(sorted(PROFILES))}")
            data = {**PROFILES[name], **data}
        return data

    @property
    def active(self) -> bool:
        return self.rate_limit > 0 or self.timeout > 0 or self.server_error > 0


# Named profiles: field values a ``profile`` starts from.
PROFILES: dict[str, dict[str, Any]] = {
    "flaky": {"rate_limit": 0.1, "timeout": 0.05, "server_error": 0.05, "slow_ms": 200},
    "degraded": {"rate_limit": 0.2, "timeout": 0.15, "server_error": 0.15, "slow_ms": 1000},
}


FaultSetting = Annotated[FaultOptions | ProfileName, AfterValidator(lambda v: parse_faults(v))]
"""A request field: fault options, or a profile name (validated into ``FaultOptions`` either way)."""

FAULTS_HELP = ("Seeded fault injection: a profile name (flaky, degraded) or {profile?, seed, rate_limit, timeout, "
               "server_error, slow_ms, max_retry_after}; tools then answer 429/503/504 like failing APIs, the same "
               "calls on every run. Faults are never judged.")


def parse_faults(value: FaultOptions | str | dict[str, Any]) -> FaultOptions:
    """Options from a model, a profile name or a dict. Raises ``ValueError`` naming the problem."""
    if isinstance(value, FaultOptions):
        return value
    try:
        return FaultOptions.model_validate(value)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'faults'}: {e['msg']}" for e in exc.errors())
        raise ValueError(f"invalid fault options: {problems}") from None


@dataclass(frozen=True, slots=True)
class Fault:
    """One injected failure."""

    code: FaultCode
    retry_after: int | None = None
    delay_ms: int = 0

    @property
    def status(self) -> int:
        return STATUS_OF[self.code]

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {"status": self.status, "code": self.code.value}
        if self.code is FaultCode.RATE_LIMITED:
            error["message"] = f"Too many requests: rate limit exceeded. Retry after {self.retry_after} s."
            error["retry_after"] = self.retry_after
        elif self.code is FaultCode.TIMEOUT:
            error["message"] = f"The API did not answer within {self.delay_ms} ms; the request timed out."
            error["timeout_ms"] = self.delay_ms
        else:
            error["message"] = "Service unavailable: the API is temporarily down. Try again."
        return {"error": error}


class FaultInjector:
    """The fault draws of one session (copied, with its call count, when the session is forked)."""

    __slots__ = ("options", "calls")

    def __init__(self, options: FaultOptions, calls: int = 0) -> None:
        self.options = options
        self.calls = calls  # calls drawn so far: the index of the next draw

    def copy(self) -> FaultInjector:
        return FaultInjector(self.options, self.calls)

    def draw(self, name: str, args_json: str) -> Fault | None:
        """The fault for the session's next call (``args_json``: canonical arguments), or None."""
        index = self.calls
        self.calls += 1
        opts = self.options
        digest = hashlib.sha256(f"{opts.seed}\x1f{index}\x1f{name}\x1f{args_json}".encode()).digest()
        # The layers a request meets, in order, each with its own slice of the hash.
        if _uniform(digest, 0) < opts.rate_limit:
            return Fault(FaultCode.RATE_LIMITED, retry_after=1 + digest[24] % opts.max_retry_after)
        if _uniform(digest, 8) < opts.timeout:
            return Fault(FaultCode.TIMEOUT, delay_ms=opts.slow_ms)
        if _uniform(digest, 16) < opts.server_error:
            return Fault(FaultCode.SERVICE_UNAVAILABLE)
        return None


def _uniform(digest: bytes, offset: int) -> float:
    """A number in [0, 1) from eight bytes of ``digest``."""
    return int.from_bytes(digest[offset:offset + 8], "big") / 2**64
