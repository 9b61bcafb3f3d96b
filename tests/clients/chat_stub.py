"""A scripted OpenAI-compatible chat completions server on a loopback port, for adapter tests.

``ChatStub(answer)`` serves ``POST .../chat/completions``: ``answer(body)`` gets the request
body and returns the assistant message to send back; ``bodies`` keeps every request. No model,
no network beyond 127.0.0.1.

:func:`oracle_answers` replays the oracle's gold path of each scenario: it finds the scenario
by the conversation's first user message and its place by the number of assistant messages so
far (the oracle never leaves its path, so the n-th assistant message is the n-th action).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from env_server.orchestrator import ScenarioSpec
from env_server.rl.policies import oracle_plan

Answer = Callable[[dict[str, Any]], dict[str, Any]]


class ChatStub:
    def __init__(self, answer: Answer, bodies: list[dict[str, Any]] | None = None) -> None:
        self.answer = answer
        self.bodies: list[dict[str, Any]] = [] if bodies is None else bodies
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                stub.bodies.append(body)
                if not self.path.endswith("/chat/completions"):
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                self._send(200, completion(body.get("model", "stub"), stub.answer(body), len(stub.bodies)))

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> ChatStub:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def completion(model: str, message: dict[str, Any], n: int) -> dict[str, Any]:
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    return {"id": f"chatcmpl-stub-{n}", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


def oracle_answers(scenarios: Iterable[tuple[str, ScenarioSpec]]) -> Answer:
    """The oracle for each (first user message, scenario) pair."""
    plans = {first: [a for task in oracle_plan(spec) for a in task] for first, spec in scenarios}

    def answer(body: dict[str, Any]) -> dict[str, Any]:
        messages = body["messages"]
        first = next(m["content"] for m in messages if m["role"] == "user")
        done = sum(m["role"] == "assistant" for m in messages)
        plan = plans[first]
        return plan[done] if done < len(plan) else {"content": "Done."}

    return answer


def refusing_answers(body: dict[str, Any]) -> dict[str, Any]:
    """A wrong policy: never calls a tool, never answers the question."""
    return {"content": "Sorry, I can't help with that."}
