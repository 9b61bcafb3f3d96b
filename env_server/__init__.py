"""toolenv's server package: catalog, simulators, MCP handlers, app and CLI."""

from env_server.catalog import Catalog, ToolSpec, load_catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment

__all__ = ["Catalog", "ServerSettings", "ToolEnvironment", "ToolSpec", "load_catalog"]
