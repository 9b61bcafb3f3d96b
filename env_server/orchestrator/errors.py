"""Exceptions of the scenario layer (subclasses of ``ToolenvError``)::

    ToolenvError
    └── ScenarioError             a scenario cannot be used
        ├── ScenarioFormatError   a file or line does not parse into a scenario
        ├── RecordError           a gold call failed while recording observations
        └── LiveSessionError      a scenario session is used wrongly (REST 4xx)
            ├── UnknownScenarioSessionError   no such session or scenario (404)
            └── SessionFinishedError          the session already ended (409)
"""

from __future__ import annotations

from env_server.errors import ToolenvError


class ScenarioError(ToolenvError):
    """Base class of scenario problems raised on purpose."""


class ScenarioFormatError(ScenarioError):
    """A scenario file or line is malformed; the message names the file, line and field."""


class RecordError(ScenarioError):
    """Running a gold call through the simulator failed, so nothing was written."""


class LiveSessionError(ScenarioError):
    """A live scenario session cannot do what was asked."""


class UnknownScenarioSessionError(LiveSessionError):
    """No scenario session (or no scenario) with that id."""


class SessionFinishedError(LiveSessionError):
    """The scenario session has already ended; nothing more can be sent to it."""
