"""State-keeping routes for retries and token refresh. Each test names its own key (a UUID), so
tests running in parallel never share a counter.

- `GET|POST|PUT… /flaky/<key>?failures=N&status=503&retry-after=V&retry-after-ms=M`: the first N
  requests with this key answer `status` (with `Retry-After: V` if given, and `"retry_after_ms": M`
  in the JSON body, as Matrix does, if given; `status=reset` resets the connection instead;
  `status=cut` answers a 200 head and cuts its body after 10 of 100 bytes), every
  later one answers 200 `{"attempt": n}`. A request body is read and counted.
- `GET /flaky-stats/<key>`: `{"requests": n, "bodyBytes": [sizes of each request's body]}`.
- `GET /auth/<key>/protected`: 200 `{"token": t}` when `Authorization: Bearer t` carries the key's
  current token (at first `token-1`), else 401 with `WWW-Authenticate: Bearer`.
- `POST /auth/<key>/refresh?delay=S`: makes the next token current (`token-2`, …) and returns
  `{"token": …}`, after S seconds if given.
- `POST /auth/<key>/refresh-refused`: a refresh token the server no longer accepts: 401, as
  simplejwt answers an expired refresh token, and nothing changes.
- `GET /auth-stats/<key>`: `{"requests": protected requests, "refreshes": n}`.
"""
import threading
import time
from urllib.parse import parse_qs, urlsplit

from routes_faults import reset, short_body
from server import send_json

lock = threading.Lock()
flaky = {}   # key -> {"requests": n, "bodyBytes": [...]}
tokens = {}  # key -> {"generation": g, "requests": n, "refreshes": m}


def read_body(request):
    length = int(request.headers.get("Content-Length") or 0)
    received = 0
    while received < length:
        chunk = request.rfile.read(min(length - received, 65536))
        if not chunk:
            break
        received += len(chunk)
    return received


def key_of(request, prefix):
    return urlsplit(request.path).path[len(prefix):].split("/")[0]


def flaky_route(request):
    key = key_of(request, "/flaky/")
    query = parse_qs(urlsplit(request.path).query)
    failures = int(query.get("failures", ["0"])[0])
    status = query.get("status", ["503"])[0]
    retry_after = query.get("retry-after", [None])[0]
    retry_after_ms = query.get("retry-after-ms", [None])[0]
    size = read_body(request)
    with lock:
        state = flaky.setdefault(key, {"requests": 0, "bodyBytes": []})
        state["requests"] += 1
        state["bodyBytes"].append(size)
        attempt = state["requests"]
    if attempt <= failures:
        if status == "reset":
            return reset(request)
        if status == "cut":
            # A 200 head announcing 100 bytes, 10 of them, then the connection closes.
            return short_body(request)
        headers = [("Retry-After", retry_after)] if retry_after is not None else []
        body = {"attempt": attempt, "failing": True}
        if retry_after_ms is not None:
            body["retry_after_ms"] = int(retry_after_ms)
        return send_json(request, int(status), body, headers)
    send_json(request, 200, {"attempt": attempt})


def flaky_stats(request):
    with lock:
        state = flaky.get(key_of(request, "/flaky-stats/"), {"requests": 0, "bodyBytes": []})
        send_json(request, 200, dict(state))


def auth_state(key):
    return tokens.setdefault(key, {"generation": 1, "requests": 0, "refreshes": 0})


def auth_route(request):
    parts = urlsplit(request.path).path.split("/")  # ["", "auth", key, action]
    if len(parts) != 4:
        return send_json(request, 404, {"detail": "use /auth/<key>/protected or /auth/<key>/refresh"})
    key, action = parts[2], parts[3]
    read_body(request)
    if action == "refresh-refused" and request.command == "POST":
        return send_json(request, 401, {"detail": "refresh token expired", "code": "token_not_valid"},
                         [("WWW-Authenticate", "Bearer")])
    if action == "refresh" and request.command == "POST":
        delay = float(parse_qs(urlsplit(request.path).query).get("delay", ["0"])[0])
        time.sleep(min(delay, 10))
    with lock:
        state = auth_state(key)
        if action == "refresh" and request.command == "POST":
            state["generation"] += 1
            state["refreshes"] += 1
            token = "token-%d" % state["generation"]
            return send_json(request, 200, {"token": token})
        if action != "protected":
            return send_json(request, 404, {"detail": "unknown action " + action})
        state["requests"] += 1
        token = "token-%d" % state["generation"]
    if request.headers.get("Authorization") == "Bearer " + token:
        return send_json(request, 200, {"token": token})
    send_json(request, 401, {"detail": "token expired"}, [("WWW-Authenticate", "Bearer")])


def auth_stats(request):
    with lock:
        state = dict(auth_state(key_of(request, "/auth-stats/")))
    send_json(request, 200, {"requests": state["requests"], "refreshes": state["refreshes"]})


ROUTES = [
    ("*", "/flaky/", flaky_route),
    ("GET", "/flaky-stats/", flaky_stats),
    ("*", "/auth/", auth_route),
    ("GET", "/auth-stats/", auth_stats),
]
