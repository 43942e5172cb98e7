"""GET /health: answers 200 once the server is up (the start script polls it)."""
from server import send_json

ROUTES = [
    ("GET", "/health", lambda request: send_json(request, 200, {"ok": True})),
]
