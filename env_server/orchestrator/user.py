"""The scripted user of a scenario: task openers and gold clarification replies.

The user never improvises. After the agent speaks in text, what it says next follows from
the matcher's judgement of that text alone:

* the text matched a clarification (ask) node: reply with that node's ``user_input``;
* the text matched the task's ``prepare_to_answer`` node: the task is complete;
* anything else (no pseudo-action was a candidate, the task had already failed, or it was
  truncated): the task has failed.

In both of the last cases the user moves on with the next task's message, or ends the session.
"""

from __future__ import annotations

from enum import Enum

from env_server.orchestrator.models import ScenarioSpec
from env_server.scoring import StepRecord, StepStatus, TaskMatcher


class Verdict(str, Enum):
    CLARIFY = "clarify"
    COMPLETE = "complete"
    FAIL = "fail"


class ScriptedUser:
    def __init__(self, spec: ScenarioSpec) -> None:
        self._openers = [task.user_message for task in spec.tasks]

    @property
    def task_count(self) -> int:
        return len(self._openers)

    def opening(self, task_index: int) -> str:
        return self._openers[task_index]

    @staticmethod
    def verdict(record: StepRecord | None) -> Verdict:
        """``record`` is the matcher's judgement of the agent's text, or None if it was not judged."""
        if record is None:
            return Verdict.FAIL
        if record.status is StepStatus.ASKED:
            return Verdict.CLARIFY
        if record.status is StepStatus.ANSWERED:
            return Verdict.COMPLETE
        return Verdict.FAIL

    @staticmethod
    def clarification(matcher: TaskMatcher, record: StepRecord) -> str:
        return matcher.user_reply(record) or ""
