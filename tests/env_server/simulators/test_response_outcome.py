"""A response's outcome field says the request went well when the answer carries data."""

from __future__ import annotations

import datetime as dt

import pytest

from env_server.catalog import load_catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.simulators.leaf_plans import http_status_node, response_success
from state import Database


@pytest.mark.parametrize(("enum", "name", "success"), [
    (["1", "0"], "status", "1"),
    (["OK", "NOTOK"], "message", "OK"),
    (["ok", "signature_not_found", "no_results"], "query_status", "ok"),
    (["SUCCESS", "ERROR"], "status", "SUCCESS"),
])
def test_an_outcome_enum_answers_its_success_value(enum, name, success):
    assert response_success(enum, name) == success


@pytest.mark.parametrize(("enum", "name"), [
    (["success", "failed", "pending"], "status"),  # a payment's state, not the response's
    (["ok", "error"], "state"),  # not an outcome field
    (["shipped", "delivered"], "status"),
])
def test_an_entity_state_is_not_an_outcome(enum, name):
    assert response_success(enum, name) is None


def test_a_balance_and_a_signature_query_report_success_beside_their_data():
    catalog = load_catalog()
    env = ToolEnvironment(catalog, Database(), ServerSettings())
    tools = ["etherscan_get_balance", "malwarebazaar_query_by_signature"]
    for seed in range(8):
        sid = f"s{seed}"
        env.create_session(tools=tools, session_id=sid, seed=seed, today=dt.date(2026, 12, 7))
        balance = env.call_tool(sid, tools[0], {"address": "0x00d33eafb808b9e5438f7c386d6e501d9dc60854"}).result
        assert (balance["status"], balance["message"]) == ("1", "OK")
        found = env.call_tool(sid, tools[1], {"signature": "AgentTesla"}).result
        assert found["data"] and found["query_status"] == "ok"


@pytest.mark.parametrize(("name", "schema", "status"), [
    ("status", {"type": "integer"}, 200),
    ("statusCode", {"type": "integer", "minimum": 200, "maximum": 599}, 200),
    ("http_status", {"type": "integer", "enum": [200, 404]}, 200),
    ("status", {"type": "integer", "minimum": 0, "maximum": 1}, None),  # a flag, not an HTTP status
    ("status", {"type": "string"}, None),
])
def test_an_http_status_of_an_answer_is_200(name, schema, status):
    node = http_status_node(name, schema)
    assert (node(None, None) if node is not None else None) == status  # type: ignore[arg-type]
