"""A body the server writes as fast as the client takes it, and how much it got to write
(StreamPacingWireTests: a stream nobody reads must stop the server, not fill the client's memory).

- `GET /flood/KEY?bytes=N`: N bytes (default 256 MiB) with a `Content-Length`, written in 64 KiB
  pieces as fast as the socket takes them; the count written so far is kept under KEY.
- `GET /flood-sent/KEY`: that count, as a JSON number (0 for a key never seen).
A client that goes away mid-answer is not an error here.
"""
import threading
from urllib.parse import parse_qs, urlsplit

from server import send_json

PIECE = b"f" * (64 * 1024)
SENT = {}
SENT_LOCK = threading.Lock()


def flood_route(request):
    parts = urlsplit(request.path)
    key = parts.path.rsplit("/", 1)[-1]
    count = int(parse_qs(parts.query).get("bytes", [str(256 << 20)])[0])
    try:
        request.send_response(200)
        request.send_header("Content-Type", "application/octet-stream")
        request.send_header("Content-Length", str(count))
        request.end_headers()
        sent = 0
        while sent < count:
            piece = PIECE[:min(len(PIECE), count - sent)]
            request.wfile.write(piece)
            sent += len(piece)
            with SENT_LOCK:
                SENT[key] = sent
        request.wfile.flush()
    except (BrokenPipeError, ConnectionResetError):
        request.close_connection = True


def flood_sent_route(request):
    key = urlsplit(request.path).path.rsplit("/", 1)[-1]
    with SENT_LOCK:
        sent = SENT.get(key, 0)
    send_json(request, 200, sent)


ROUTES = [
    ("GET", "/flood-sent/", flood_sent_route),
    ("GET", "/flood/", flood_route),
]
