"""A 401 that challenges, counted: the library delivers it as it is, with its body, sent once.

- `* /challenge/<key>?empty=1`: reads any request body, then answers 401 with
  `WWW-Authenticate: Basic realm="challenge"` and the JSON body `{"detail": "sign in", "request": n}`
  (n counts this key's requests from 1); with `empty=1`, and to a HEAD, an empty body
  (`Content-Length: 0`).
- `GET /challenge-stats/<key>`: `{"requests": n}`.
"""
import threading
from urllib.parse import parse_qs, urlsplit

from server import send_json

lock = threading.Lock()
counts = {}  # key -> requests seen


def challenge_route(request):
    parts = urlsplit(request.path)
    key = parts.path.rsplit("/", 1)[-1]
    length = int(request.headers.get("Content-Length") or 0)
    if length:
        request.rfile.read(length)
    with lock:
        counts[key] = counts.get(key, 0) + 1
        count = counts[key]
    challenge = [("WWW-Authenticate", 'Basic realm="challenge"')]
    if parse_qs(parts.query).get("empty") == ["1"] or request.command == "HEAD":
        request.send_response(401)
        request.send_header("Content-Length", "0")
        for name, value in challenge:
            request.send_header(name, value)
        request.end_headers()
        return
    send_json(request, 401, {"detail": "sign in", "request": count}, challenge)


def challenge_stats(request):
    key = urlsplit(request.path).path.rsplit("/", 1)[-1]
    with lock:
        send_json(request, 200, {"requests": counts.get(key, 0)})


ROUTES = [
    ("*", "/challenge/", challenge_route),
    ("GET", "/challenge-stats/", challenge_stats),
]
