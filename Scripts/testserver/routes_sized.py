"""Bodies of a chosen size and framing, optionally stalling mid-body (WholeBodyWireTests, MidBodyTimingWireTests).

- `GET /sized?bytes=N&framing=length|chunked&stall=MS`: a body of N bytes, byte i being
  `i % 251`, with a `Content-Length` or chunked (in 16 KiB chunks). With `stall`, it sends the
  first half of the body, then waits `stall` milliseconds before the rest, so that a client's
  idle timeout can fire mid-body. With `gate=KEY`, it sends the first half, then the rest only
  once `POST /gate/KEY` came (or `gatewait` seconds passed, 10 by default), so that a test can
  tell when its client got the head. A client that goes away mid-answer is not an error here.
- `GET /gzipped?bytes=N&gate=KEY`: N zero bytes, gzip-compressed, with `Content-Encoding: gzip` and the
  compressed `Content-Length` (a few KiB for megabytes): an answer small on the wire, large read.
  With `gate` (and `gatewait`), the first half of the compressed bytes, then the rest as for `/sized`.
- `POST /gate/KEY`: opens that gate; answers 204.
- `GET /gate/KEY`: how the answer behind that gate went on: `opened` (by `POST /gate/KEY`) or
  `waited` (its `gatewait` ran out first); 404 while it waits.
"""
import gzip
import threading
import time
from urllib.parse import parse_qs, urlsplit

CHUNK = 16 * 1024
GATES = {}
OUTCOMES = {}
GATES_LOCK = threading.Lock()


def gate(key):
    with GATES_LOCK:
        return GATES.setdefault(key, threading.Event())


def open_gate(request):
    gate(urlsplit(request.path).path.rsplit("/", 1)[-1]).set()
    request.send_response(204)
    request.send_header("Content-Length", "0")
    request.end_headers()


def gate_outcome(request):
    key = urlsplit(request.path).path.rsplit("/", 1)[-1]
    with GATES_LOCK:
        outcome = OUTCOMES.get(key)
    body = (outcome or "").encode()
    request.send_response(200 if outcome else 404)
    request.send_header("Content-Type", "text/plain")
    request.send_header("Content-Length", str(len(body)))
    request.end_headers()
    request.wfile.write(body)


def pass_gate(key, wait):
    """Waits up to `wait` seconds for `POST /gate/KEY` and records which came first."""
    opened = gate(key).wait(wait)
    with GATES_LOCK:
        OUTCOMES[key] = "opened" if opened else "waited"


def gzipped_route(request):
    query = parse_qs(urlsplit(request.path).query)
    body = gzip.compress(bytes(int(query.get("bytes", ["0"])[0])))
    gate_key = query.get("gate", [None])[0]
    request.send_response(200)
    request.send_header("Content-Type", "application/octet-stream")
    request.send_header("Content-Encoding", "gzip")
    request.send_header("Content-Length", str(len(body)))
    request.end_headers()
    half = len(body) // 2 if gate_key else len(body)
    try:
        request.wfile.write(body[:half])
        request.wfile.flush()
        if gate_key:
            pass_gate(gate_key, float(query.get("gatewait", ["10"])[0]))
        request.wfile.write(body[half:])
    except (BrokenPipeError, ConnectionResetError):
        request.close_connection = True


def sized_body(count):
    return bytes(i % 251 for i in range(count))


def sized_route(request):
    query = parse_qs(urlsplit(request.path).query)
    count = int(query.get("bytes", ["0"])[0])
    chunked = query.get("framing", ["length"])[0] == "chunked"
    stall_ms = float(query.get("stall", ["0"])[0])
    gate_key = query.get("gate", [None])[0]
    gate_wait = float(query.get("gatewait", ["10"])[0])
    body = sized_body(count)
    try:
        request.send_response(200)
        request.send_header("Content-Type", "application/octet-stream")
        if chunked:
            request.send_header("Transfer-Encoding", "chunked")
        else:
            request.send_header("Content-Length", str(count))
        request.end_headers()
        half = count // 2 if stall_ms or gate_key else count
        for start, end in ((0, half), (half, count)):
            for offset in range(start, end, CHUNK):
                part = body[offset:min(offset + CHUNK, end)]
                request.wfile.write(b"%x\r\n%s\r\n" % (len(part), part) if chunked else part)
            request.wfile.flush()
            if stall_ms and start == 0:
                time.sleep(stall_ms / 1000)
            if gate_key and start == 0:
                pass_gate(gate_key, gate_wait)
        if chunked:
            request.wfile.write(b"0\r\n\r\n")
        request.wfile.flush()
    except (BrokenPipeError, ConnectionResetError):
        request.close_connection = True


ROUTES = [
    ("GET", "/sized", sized_route),
    ("POST", "/gate/", open_gate),
    ("GET", "/gate/", gate_outcome),
    ("GET", "/gzipped", gzipped_route),
]
