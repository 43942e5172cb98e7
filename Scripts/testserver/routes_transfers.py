"""Transfers that stop half-way and go on: downloads cut and continued with Range, event streams
dropped and reconnected with Last-Event-ID. Each test names its own key (a UUID), so tests
running in parallel never share state.

- `GET /transfers/file/<key>?size=S&cut=N&cuts=K&validator=V&range=R`: a file of S bytes
  (100000 by default) where byte i is (i + V - 1) % 251, V being the key's version (1 at first), with
  `ETag: "<key>-v<V>"` and a fixed `Last-Modified` (`validator=last-modified` sends no ETag,
  `validator=weak` a weak one, `validator=none` neither). A request with `Range: bytes=N-` is
  answered 206 with the rest, when its `If-Range` (if any) is the current ETag or date, else 200
  with the whole file. The first K requests of the key (1 by default; 0 with no `cut`) announce
  their whole body and are cut after N bytes of it. `range=wrong-start` answers a Range with the
  bytes one before those asked; `range=wrong-total` announces a total one larger;
  `range=too-long` sends 10 bytes more than the file has (a length check must fail);
  `range=error` answers a Range with 503 `{"detail": "ranges refused"}`; `range=half` sends only
  the first half of the bytes asked for (a range a server may choose), with a Content-Range
  saying so; `range=ignore` answers every Range with 200 and the whole file, as a server that
  does not serve ranges though it says so; `accept-ranges=none` leaves out `Accept-Ranges: bytes`
  (ranges are still served). With `gate=1`, a request without Range sends the
  first 64 KiB of its body, then the rest only once `POST /transfers/open/<key>` came (or 10 s
  passed), so that a test can hold the bulk of a body until its reader is ready.
- `POST /transfers/open/<key>`: opens that gate, and answers once the rest of the body was
  written or the client went away (10 s at most): `{"written": true}`.
- `POST /transfers/change/<key>`: the file changes: the key's version goes up by one.
- `GET /transfers/stats/<key>`: `{"requests": [{"range": r, "ifRange": i, "status": s}, ...]}`,
  the Range and If-Range each request carried (null when absent) and the status answered.
- `GET /transfers/events/<key>?total=T&per=N&retry=MS&drop=partial`: an event stream of T events
  (6 by default), `id: n` and `data: event n`, from the one after the request's `Last-Event-ID`
  (0 without). Each connection sends `retry: MS` (10 by default) and at most N events (2 by
  default), then closes the connection (with `drop=partial`, after a block `id: 99` /
  `data: lost` without its empty line). A request whose Last-Event-ID is T or more is answered
  204: the stream is over.
  With `auth=1`, a connection must carry `Authorization: Bearer token-G`, else it is refused
  with 401; G starts at 1 and goes up with each connection accepted (a token serves once).
- `GET /transfers/events-stats/<key>`: `{"lastEventIds": [...], "accepts": [...],
  "authorizations": [...]}`, the Last-Event-ID, Accept and Authorization (null when absent) of
  each request.
- `GET /transfers/events-status/<status>`: that status with a JSON error document.
- `GET /transfers/events-wrong-type`: 200 with `text/plain` event-like text.
- `GET /transfers/events-live/<status>`: that status with an event stream's head, then nothing
  for 90 s: a body that only a reader who should not read it waits for.
"""
import threading
import time
from urllib.parse import parse_qs, urlsplit

from routes_events import start_event_stream
from server import send_json

LAST_MODIFIED = "Wed, 21 Oct 2026 07:28:00 GMT"

lock = threading.Lock()
files = {}  # key -> [{"range": ..., "ifRange": ..., "status": ...}]
versions = {}  # key -> version of its file
gates = {}  # key -> (opened, written): POST /transfers/open/<key> sets the first, the body's end the second


def gate_of(key):
    with lock:
        return gates.setdefault(key, (threading.Event(), threading.Event()))


def key_of(request, prefix):
    return urlsplit(request.path).path[len(prefix):].split("/")[0]


def file_bytes(size, version):
    # The pattern repeats every 251 bytes: built once, then repeated (fast for files of many MiB).
    period = bytes((index + version - 1) % 251 for index in range(251))
    return (period * (size // 251 + 1))[:size]


def validators(key, version, kind):
    """The header fields that validate the file, and the values If-Range may match."""
    etag = '"%s-v%d"' % (key, version)
    if kind == "none":
        return [], []
    if kind == "weak":
        return [("ETag", "W/" + etag), ("Last-Modified", LAST_MODIFIED)], []
    if kind == "last-modified":
        return [("Last-Modified", LAST_MODIFIED)], [LAST_MODIFIED]
    return [("ETag", etag), ("Last-Modified", LAST_MODIFIED)], [etag, LAST_MODIFIED]


def asked_start(range_header):
    """N for `bytes=N-`, else None (other forms are answered with the whole file)."""
    if not range_header or not range_header.startswith("bytes=") or not range_header.endswith("-"):
        return None
    try:
        return int(range_header[len("bytes="):-1])
    except ValueError:
        return None


def file_route(request):
    key = key_of(request, "/transfers/file/")
    query = {name: values[0] for name, values in parse_qs(urlsplit(request.path).query).items()}
    size = int(query.get("size", "100000"))
    with lock:
        version = versions.get(key, 1)
    cut = int(query["cut"]) if "cut" in query else None
    cuts = int(query.get("cuts", "1")) if cut is not None else 0
    fields, matching = validators(key, version, query.get("validator", "etag"))
    content = file_bytes(size, version)
    range_header = request.headers.get("Range")
    if_range = request.headers.get("If-Range")
    start = asked_start(range_header)
    partial = start is not None and start < size and (if_range is None or if_range in matching)
    if query.get("range") == "ignore":
        partial = False

    status, headers, body = 200, [], content
    if start is not None and query.get("range") == "error":
        with lock:
            files.setdefault(key, []).append({"range": range_header, "ifRange": if_range, "status": 503})
        return send_json(request, 503, {"detail": "ranges refused"})
    if partial:
        mode = query.get("range")
        first, total = start, size
        if mode == "wrong-start":
            first = max(start - 1, 0)
        if mode == "wrong-total":
            total = size + 1
        last = size - 1
        if mode == "half":
            last = start + (size - start) // 2 - 1
        body = content[first:last + 1]
        if mode == "too-long":
            body += b"\x00" * 10
        status = 206
        headers = [("Content-Range", "bytes %d-%d/%d" % (first, last, total))]

    with lock:
        seen = files.setdefault(key, [])
        seen.append({"range": range_header, "ifRange": if_range, "status": status})
        is_cut = len(seen) <= cuts

    request.send_response(status)
    request.send_header("Content-Type", "application/octet-stream")
    request.send_header("Content-Length", str(len(body)))
    if query.get("accept-ranges") != "none":
        request.send_header("Accept-Ranges", "bytes")
    for name, value in fields + headers:
        request.send_header(name, value)
    if is_cut:
        request.send_header("Connection", "close")
    request.end_headers()
    if is_cut:
        # The whole body announced, `cut` bytes of it sent, then the connection closes. The close
        # waits a moment: an engine may drop bytes it holds but has not handed over when the end
        # comes with them (AsyncHTTPClient on a busy machine), and the tests count exact offsets.
        request.wfile.write(body[:cut])
        request.wfile.flush()
        time.sleep(0.2)
        request.close_connection = True
        return
    if query.get("gate") == "1" and range_header is None:
        opened, written = gate_of(key)
        try:
            request.wfile.write(body[:65536])
            request.wfile.flush()
            opened.wait(10)
            request.wfile.write(body[65536:])
            request.wfile.flush()
        except OSError:  # the client went away (a paused download): not an error here
            request.close_connection = True
        finally:
            written.set()
        return
    request.wfile.write(body)


def open_gate(request):
    opened, written = gate_of(key_of(request, "/transfers/open/"))
    opened.set()
    written.wait(10)
    send_json(request, 200, {"written": written.is_set()})


def change_file(request):
    key = key_of(request, "/transfers/change/")
    with lock:
        versions[key] = versions.get(key, 1) + 1
        version = versions[key]
    send_json(request, 200, {"version": version})


def file_stats(request):
    with lock:
        seen = list(files.get(key_of(request, "/transfers/stats/"), []))
    send_json(request, 200, {"requests": seen})


streams = {}  # key -> {"lastEventIds": [...], "accepts": [...]}


def events_route(request):
    key = key_of(request, "/transfers/events/")
    query = {name: values[0] for name, values in parse_qs(urlsplit(request.path).query).items()}
    total = int(query.get("total", "6"))
    per = int(query.get("per", "2"))
    last = request.headers.get("Last-Event-ID")
    with lock:
        seen = streams.setdefault(key, {"lastEventIds": [], "accepts": [], "authorizations": [], "token": 1})
        seen["lastEventIds"].append(last)
        seen["accepts"].append(request.headers.get("Accept"))
        seen["authorizations"].append(request.headers.get("Authorization"))
        refused = "auth" in query and request.headers.get("Authorization") != "Bearer token-%d" % seen["token"]
        if "auth" in query and not refused:
            seen["token"] += 1
    if refused:
        return send_json(request, 401, {"detail": "token expired"}, [("WWW-Authenticate", "Bearer")])
    after = int(last) if last and last.isdigit() else 0
    if after >= total:
        request.send_response(204)
        request.send_header("Content-Length", "0")
        request.end_headers()
        return
    start_event_stream(request)
    request.wfile.write(b"retry: %d\n\n" % int(query.get("retry", "10")))
    for number in range(after + 1, min(after + per, total) + 1):
        request.wfile.write(b"id: %d\ndata: event %d\n\n" % (number, number))
        request.wfile.flush()
    if query.get("drop") == "partial":
        request.wfile.write(b"id: 99\ndata: lost\n")
        request.wfile.flush()


def events_stats(request):
    with lock:
        seen = dict(streams.get(key_of(request, "/transfers/events-stats/"), {"lastEventIds": [], "accepts": [], "authorizations": []}))
    seen.pop("token", None)
    send_json(request, 200, seen)


def events_status(request):
    status = int(key_of(request, "/transfers/events-status/") or "500")
    send_json(request, status, {"detail": "no stream here"})


def events_live(request):
    status = int(key_of(request, "/transfers/events-live/") or "201")
    request.send_response(status)
    request.send_header("Content-Type", "text/event-stream")
    request.send_header("Connection", "close")
    request.end_headers()
    request.wfile.flush()
    request.close_connection = True
    time.sleep(90)


def events_wrong_type(request):
    body = b"data: not an event stream\n\n"
    request.send_response(200)
    request.send_header("Content-Type", "text/plain")
    request.send_header("Content-Length", str(len(body)))
    request.end_headers()
    request.wfile.write(body)


ROUTES = [
    ("GET", "/transfers/events/", events_route),
    ("GET", "/transfers/events-stats/", events_stats),
    ("GET", "/transfers/events-status/", events_status),
    ("GET", "/transfers/events-wrong-type", events_wrong_type),
    ("GET", "/transfers/events-live/", events_live),
    ("GET", "/transfers/file/", file_route),
    ("POST", "/transfers/change/", change_file),
    ("POST", "/transfers/open/", open_gate),
    ("GET", "/transfers/stats/", file_stats),
]
