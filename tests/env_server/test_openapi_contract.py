"""The REST plane behaves as its OpenAPI schema says: a bounded schemathesis run.

Every operation of ``/openapi.json`` gets a few dozen generated requests (fixed seed:
``derandomize``) against a real uvicorn server, and each answer is checked by schemathesis'
default checks: no 5xx, only documented status codes, bodies that match their schemas, data
the schema admits is accepted and data it rejects is refused.

Names of things the catalog has (tools, groups, scenarios, generator families) cannot be
stated in the schema without listing the catalog in it, so generated names are swapped for
real ones first; a request naming something unknown is answered 404 or 422, which the
route-level tests cover.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from env_server.app import build_app
from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.generator.generate import GeneratorSettings, available_packs
from env_server.orchestrator.sessions import registry_for
from state import Database
from state.store import Durability
from tests.servers import running_server

EXAMPLES = 20
_EMPTY_APP = build_app(ToolEnvironment(Catalog(), Database(), ServerSettings(durability=Durability.EPHEMERAL)))
SCHEMA = schemathesis.openapi.from_dict(_EMPTY_APP.openapi())
OPERATIONS = {result.ok().label: result.ok() for result in SCHEMA.get_all_operations()}


@pytest.fixture(scope="module")
def served(builtin_catalog: Catalog) -> Iterator[tuple[str, ToolEnvironment]]:
    settings_ = ServerSettings(durability=Durability.EPHEMERAL, admin_token="contract-token")
    env = ToolEnvironment(builtin_catalog, Database(), settings_)
    with running_server(env) as base:
        yield base, env


def _pick(options: list[str], text: str) -> str:
    return options[zlib.crc32(text.encode()) % len(options)]


class RealNames:
    """Swaps generated names for ones the server has, keeping every other generated value."""

    def __init__(self, env: ToolEnvironment) -> None:
        self.groups = sorted(env.catalog.groups)
        self.scenarios = sorted(s.id for s in registry_for(env).scenarios.scenarios)
        self.families = sorted(pack.family for pack, _ in available_packs(env.catalog, GeneratorSettings()))
        self.env = env

    def body(self, body: Any) -> Any:
        if not isinstance(body, dict):
            return body
        out = dict(body)
        if isinstance(out.get("group"), str):
            out["group"] = _pick(self.groups, out["group"])
        if isinstance(out.get("tools"), list) and all(isinstance(t, str) for t in out["tools"]):
            out["tools"] = self.tools(out["tools"], out.get("group"))
        if isinstance(out.get("scenario_id"), str):
            out["scenario_id"] = _pick(self.scenarios, out["scenario_id"])
        if isinstance(out.get("options"), dict):
            out["options"] = self.body(out["options"])
        generator = out.get("generator")
        if isinstance(generator, dict) and isinstance(generator.get("families"), list):
            out["generator"] = {**generator, "families": [_pick(self.families, str(f)) for f in generator["families"]]}
        return out

    def tools(self, names: list[str], group: Any) -> list[str]:
        taken = {exposed for exposed, _ in self.env.catalog.groups.get(group, [])} if isinstance(group, str) else set()
        pool = sorted(set(self.env.catalog.tools) - taken)
        picked: list[str] = []
        for name in names:
            choice = _pick(pool, name)
            while choice in picked:
                choice = pool[(pool.index(choice) + 1) % len(pool)]
            picked.append(choice)
        return picked


@pytest.mark.parametrize("label", sorted(OPERATIONS))
def test_every_rest_operation_answers_as_its_schema_says(served: tuple[str, ToolEnvironment], label: str) -> None:
    base, env = served
    names = RealNames(env)
    operation = OPERATIONS[label]

    @given(case=operation.as_strategy())
    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def check(case: Any) -> None:
        case.body = names.body(case.body)
        case.call_and_validate(base_url=base)

    check()


def test_the_run_covers_every_route_of_the_rest_plane() -> None:
    assert len(OPERATIONS) >= 19
    assert {"POST /v1/sessions", "DELETE /v1/sessions/{session_id}", "POST /v1/envs/{env_id}/step"} <= set(OPERATIONS)


def test_bodies_take_json_integers_only_and_name_their_shape(served: tuple[str, ToolEnvironment]) -> None:
    import httpx

    base, env = served
    tool = sorted(env.catalog.tools)[0]
    assert httpx.post(f"{base}/v1/sessions", json={"tools": [tool], "seed": False}).status_code == 422
    assert httpx.post(f"{base}/v1/sessions", json={"tools": [tool], "seed": "7"}).status_code == 422
    assert httpx.post(f"{base}/v1/sessions", json={"tools": [tool], "seed": 7.0}).status_code == 201  # JSON's 7.0 is 7
    # The schema admits no empty body: a session needs tools, a group or a scenario.
    body_schema = SCHEMA.raw_schema["components"]["schemas"]["SessionCreateRequest"]
    assert {shape["title"] for shape in body_schema["oneOf"]} == {"tool session", "scenario session"}
    assert httpx.post(f"{base}/v1/sessions", json={}).status_code == 422
    # A taken id is a conflict, not a malformed body.
    assert httpx.post(f"{base}/v1/sessions", json={"tools": [tool], "session_id": "twice"}).status_code == 201
    taken = httpx.post(f"{base}/v1/sessions", json={"tools": [tool], "session_id": "twice"})
    assert taken.status_code == 409 and "already exists" in taken.json()["detail"]
