"""Routes for the HTTP cache's wire tests. Each test names its own key (a UUID), so tests
running in parallel never share a counter.

- `GET|HEAD|POST… /cache/<key>/<anything>?cc=…&etag=…&vary=…&expires=S&age=A&lm=1&cut-once=1`:
  answers 200 with `{"requests": n, "authorization": …, "language": …}` (n counts every request
  with this key, so a test can tell whether one reached the server), and the headers asked for:
  `Cache-Control: cc`, `ETag: "etag"`, `Vary: vary`, `Expires` S seconds from now (negative for
  the past, `invalid` for "0"), `Age: A`, `Last-Modified` a fixed date with lm=1. A request whose
  `If-None-Match` holds the ETag, or (with lm=1 and no etag) any `If-Modified-Since`, gets a 304
  with the same headers. With cut-once=1 the first request's body announces 100 bytes, sends
  9 and the connection closes. POST, PUT, PATCH and DELETE answer 204 and count too.
- `GET /cache-stats/<key>`: `{"requests": n, "conditional": c, "notModified": m}`.
"""
import json
import threading
import time
from email.utils import formatdate
from urllib.parse import parse_qs, urlsplit

from routes_faults import raw
from server import send_json

lock = threading.Lock()
stats = {}  # key -> {"requests": n, "conditional": c, "notModified": m}

LAST_MODIFIED = "Tue, 14 Nov 2023 10:00:00 GMT"


def key_of(request, prefix):
    return urlsplit(request.path).path[len(prefix):].split("/")[0]


def cached_resource(request):
    key = key_of(request, "/cache/")
    query = {name: values[0] for name, values in parse_qs(urlsplit(request.path).query).items()}
    etag = '"%s"' % query["etag"] if "etag" in query else None
    conditional = "If-None-Match" in request.headers or "If-Modified-Since" in request.headers
    not_modified = (etag is not None and request.headers.get("If-None-Match") == etag) or \
        (etag is None and query.get("lm") == "1" and "If-Modified-Since" in request.headers)
    with lock:
        state = stats.setdefault(key, {"requests": 0, "conditional": 0, "notModified": 0})
        state["requests"] += 1
        state["conditional"] += 1 if conditional else 0
        state["notModified"] += 1 if not_modified else 0
        count = state["requests"]
    length = int(request.headers.get("Content-Length") or 0)
    if length:
        request.rfile.read(length)
    if request.command not in ("GET", "HEAD"):
        request.send_response(204)
        request.send_header("Content-Length", "0")
        request.end_headers()
        return
    headers = []
    if "cc" in query:
        headers.append(("Cache-Control", query["cc"]))
    if etag:
        headers.append(("ETag", etag))
    if "vary" in query:
        headers.append(("Vary", query["vary"]))
    if "expires" in query:
        expires = query["expires"]
        headers.append(("Expires", "0" if expires == "invalid" else formatdate(time.time() + int(expires), usegmt=True)))
    if "age" in query:
        headers.append(("Age", query["age"]))
    if query.get("lm") == "1":
        headers.append(("Last-Modified", LAST_MODIFIED))
    if not_modified:
        request.send_response(304)
        for name, value in headers:
            request.send_header(name, value)
        request.end_headers()
        return
    if query.get("cut-once") == "1" and count == 1:
        head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n"
        head += "".join("%s: %s\r\n" % pair for pair in headers)
        return raw(request, (head + "\r\n").encode() + b'{"request')
    body = json.dumps({"requests": count, "authorization": request.headers.get("Authorization"),
                       "language": request.headers.get("Accept-Language")}).encode()
    request.send_response(200)
    request.send_header("Content-Type", "application/json")
    request.send_header("Content-Length", str(len(body)))
    for name, value in headers:
        request.send_header(name, value)
    request.end_headers()
    if request.command != "HEAD":
        request.wfile.write(body)


def cache_stats(request):
    with lock:
        state = dict(stats.get(key_of(request, "/cache-stats/"), {"requests": 0, "conditional": 0, "notModified": 0}))
    send_json(request, 200, state)


ROUTES = [
    ("*", "/cache/", cached_resource),
    ("GET", "/cache-stats/", cache_stats),
]
