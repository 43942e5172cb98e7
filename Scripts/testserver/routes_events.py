"""Streamed bodies for the streaming tests: Server-Sent Events and text lines.

GET /events          a fixed text/event-stream script (below), written in pieces with short pauses,
                     close-delimited (no Content-Length, connection closed at the end)
GET /events/endless  one event every 50 ms (`data: tick N`, `id: N`) until the client goes away
GET /lines           text lines cut at awkward places (inside a CRLF, inside a multi-byte
                     character), chunked transfer encoding

The expected values are in the tests that read these routes; keep both in step.
"""
import time

# Each string is one write; the cuts are deliberate. Parsed, this script gives exactly:
#   ServerSentEvent(type: "message", data: "first",               lastEventId: "",  retry: 2000)
#   ServerSentEvent(type: "update",  data: "{\"n\":1}\n{\"n\":2}", lastEventId: "7", retry: 2000)
#   ServerSentEvent(type: "message", data: "caf\u00e9 \u2615",     lastEventId: "7", retry: 2000)
#   ServerSentEvent(type: "done",    data: "",                    lastEventId: "8", retry: 2000)
# and the last block, which has no closing empty line, is discarded.
EVENTS_SCRIPT = [
    b": stream opened\r\nretry: 2000\r\n\r\n",
    b"data: fi",
    b"rst\r",
    b"\n\r\n",
    b"event: update\nid: 7\ndata: {\"n\":1}\n",
    b"data: {\"n\":2}\n",
    b"\n: keep-alive\n\n",
    "data: caf\u00e9 \u2615\n\n".encode()[:10],  # inside the "\u00e9"
    "data: caf\u00e9 \u2615\n\n".encode()[10:],
    b"event: done\r\nid: 8\r\ndata\r\n\r\n",
    b"data: never dispatched\n",
]

LINES_SCRIPT = [
    b"alpha\r",
    b"\nbeta\n",
    b"gam",
    "ma \u00e9t\u00e9\r\n".encode()[:4],  # inside the first "\u00e9"
    "ma \u00e9t\u00e9\r\n".encode()[4:9],  # between "\r" and "\n"
    "ma \u00e9t\u00e9\r\n".encode()[9:],
    b"\r",
    b"delta",
]
# Expected lines: "alpha", "beta", "gamma été", "", "delta"


def start_event_stream(request):
    """The head of an event stream whose body ends when the connection closes."""
    request.send_response(200)
    request.send_header("Content-Type", "text/event-stream")
    request.send_header("Cache-Control", "no-cache")
    request.send_header("Connection", "close")
    request.end_headers()
    request.close_connection = True


def stream_events(request):
    start_event_stream(request)
    for piece in EVENTS_SCRIPT:
        request.wfile.write(piece)
        request.wfile.flush()
        time.sleep(0.02)


def stream_endless_events(request):
    start_event_stream(request)
    number = 0
    try:
        while True:
            number += 1
            request.wfile.write(b"id: %d\ndata: tick %d\n\n" % (number, number))
            request.wfile.flush()
            time.sleep(0.05)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the client went away, which is how this route ends


def stream_lines(request):
    request.send_response(200)
    request.send_header("Content-Type", "text/plain; charset=utf-8")
    request.send_header("Transfer-Encoding", "chunked")
    request.end_headers()
    for piece in LINES_SCRIPT:
        request.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
        request.wfile.flush()
        time.sleep(0.02)
    request.wfile.write(b"0\r\n\r\n")


ROUTES = [
    ("GET", "/events/endless", stream_endless_events),
    ("GET", "/events", stream_events),
    ("GET", "/lines", stream_lines),
]
