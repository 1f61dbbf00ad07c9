"""The web front end's server: FastAPI app, WebSocket protocol, and ``serve()``.

The server is authoritative: it checks every move with the rules engine, draws chance itself and
commits every action to the store (:mod:`gamehall.store`) before telling any client.
"""

from gamehall.web.app import create_app

__all__ = ["create_app"]
