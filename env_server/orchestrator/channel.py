"""The user channel: ``talk_to_user(message)``, a scenario session's scripted user as an MCP tool.

A session created with ``user_channel=true`` lists this tool besides its scenario tools, so a
plain MCP client (a desktop app, a coding agent) can play a whole scenario with no harness:

* ``talk_to_user("")`` returns the user's current message (task 0's request at the start)
  without judging anything;
* any other message is the agent's text, delivered exactly like REST ``reply``; the result is
  what the user says next, or an end-of-session notice once every task has ended.

The session's first user message is also in the MCP ``instructions`` of its endpoint
(``/sessions/{id}/mcp``), rewritten per session by ``server.session_instructions``.
"""

from __future__ import annotations

from typing import Any

from env_server.catalog.models import Operation, ProfileSpec, SourceFormat, ToolSpec
from env_server.config import BASE_INSTRUCTIONS
from env_server.orchestrator.errors import SessionFinishedError
from env_server.orchestrator.live import ScenarioSession
from env_server.orchestrator.reports import TurnKind, UserTurn

TALK_TOOL_NAME = "talk_to_user"

TALK_TOOL = ToolSpec(
    name=TALK_TOOL_NAME,
    description=(
        "Talk to the user. Send your answer, or a question when you need more details, as "
        "`message`; the result is what the user says next. Call it with an empty message to "
        "read the user's current request. Use it whenever you would reply in text."
    ),
    category="Meta",
    provider="toolenv",
    source=SourceFormat.NATIVE,
    origin="builtin",
    input_schema={
        "type": "object",
        "properties": {
            "message": {"type": "string", "description": "Your text for the user; empty to read the current request."}
        },
        "required": ["message"],
    },
    output_schema={
        "type": "object",
        "properties": {
            "user_message": {"type": "string", "description": "What the user says (or the end-of-session notice)."},
            "task_index": {"type": "integer"},
            "kind": {"type": "string", "enum": [k.value for k in TurnKind]},
            "done": {"type": "boolean", "description": "True once the session is over."},
        },
        "required": ["user_message", "task_index", "kind", "done"],
    },
    profile=ProfileSpec(operation=Operation.ACTION, entity="message"),
)


def end_notice(task_count: int) -> str:
    return (f"The conversation is over: all {task_count} tasks have ended and the user will not write again. "
            "Stop here.")


class UserChannel:
    """Implements ``environment.SessionExtension`` for one scenario session."""

    tools = {TALK_TOOL_NAME: TALK_TOOL}

    def __init__(self, session: ScenarioSession, opening: str) -> None:
        self.session = session
        self.instructions = (
            f"{BASE_INSTRUCTIONS}\n\nThis endpoint is a conversation with a user (current date: "
            f"{session.spec.env_info}). Use the tools to help them, and send every text reply, answer "
            f"or question, through {TALK_TOOL_NAME}(message); its result is the user's next message. "
            f"{TALK_TOOL_NAME}(\"\") repeats the current request.\n\nThe user's first message:\n{opening}"
        )

    def serve_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        message = str(arguments.get("message") or "")
        if not message.strip():
            turn = self.session.current_turn()
        else:
            try:
                turn = self.session.reply(message)
            except SessionFinishedError:
                turn = self.session.current_turn()
        return talk_result(turn, len(self.session.tasks))


def talk_result(turn: UserTurn, task_count: int) -> dict[str, Any]:
    """The result of a ``talk_to_user`` call (``TALK_TOOL.output_schema``) that ``turn`` answered."""
    return {
        "user_message": turn.content if turn.content is not None else end_notice(task_count),
        "task_index": turn.task_index,
        "kind": turn.kind.value,
        "done": turn.done,
    }
