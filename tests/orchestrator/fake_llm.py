"""A scripted OpenAI-compatible chat-completions server on a real socket, for eval-runner tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import FastAPI

from tests.servers import serving

Respond = Callable[[dict[str, Any]], dict[str, Any]]


def tool_calls(*calls: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    """An assistant message that calls tools (arguments JSON-encoded, as the API sends them)."""
    import json

    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"call_{k}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
        for k, (name, args) in enumerate(calls)
    ]}


def text(content: str) -> dict[str, Any]:
    return {"role": "assistant", "content": content}


def fake_llm_app(respond: Respond, seen: list[dict[str, Any]]) -> FastAPI:
    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def complete(body: dict[str, Any]) -> dict[str, Any]:
        seen.append(body)
        return {"id": f"fake-{len(seen)}", "object": "chat.completion", "model": body.get("model"),
                "choices": [{"index": 0, "message": respond(body), "finish_reason": "stop"}]}

    return app


@contextmanager
def fake_llm(respond: Respond) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Serve the fake LLM with uvicorn in a thread; yields its ``/v1`` base URL and the requests seen."""
    seen: list[dict[str, Any]] = []
    with serving(fake_llm_app(respond, seen)) as base:
        yield f"{base}/v1", seen
