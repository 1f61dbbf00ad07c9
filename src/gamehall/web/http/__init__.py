"""HTTP: the only FastAPI, Starlette and uvicorn code: app, routes, identity, security, server."""
