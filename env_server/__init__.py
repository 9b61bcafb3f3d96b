"""toolenv's server package: catalog, simulators, MCP handlers, app and CLI.

The public API is the ``__all__`` of this package, of its subpackages and of
``env_server.runner`` (see ARCHITECTURE.md); each object has one of them as its import path.
"""

from env_server.config import LogLevel, ServerSettings
from env_server.environment import ToolEnvironment
from env_server.errors import SessionError
from env_server.faults import FAULT_META_KEY, FaultOptions, parse_faults
from env_server.session_types import UnknownToolError

__all__ = [
    "FAULT_META_KEY", "FaultOptions", "LogLevel", "ServerSettings", "SessionError", "ToolEnvironment",
    "UnknownToolError", "parse_faults",
]
