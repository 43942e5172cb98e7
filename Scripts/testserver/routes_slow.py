"""A slow answer for load tests: cancelled requests must find the client mid-exchange.

- `GET /slow?head=MS&body=MS`: waits `head` milliseconds, sends the head (Content-Length 12) and
  `slow-`, waits `body` milliseconds more, then sends `answer` + `\\n` (the whole body is
  `slow-answer\\n`). Defaults 20 and 20. A client that goes away mid-answer is not an error here.
"""
import time
from urllib.parse import parse_qs, urlsplit

BODY = (b"slow-", b"answer\n")


def slow_route(request):
    query = parse_qs(urlsplit(request.path).query)
    head_ms = float(query.get("head", ["20"])[0])
    body_ms = float(query.get("body", ["20"])[0])
    try:
        time.sleep(head_ms / 1000)
        request.send_response(200)
        request.send_header("Content-Type", "text/plain")
        request.send_header("Content-Length", str(sum(len(part) for part in BODY)))
        request.end_headers()
        request.wfile.write(BODY[0])
        request.wfile.flush()
        time.sleep(body_ms / 1000)
        request.wfile.write(BODY[1])
        request.wfile.flush()
    except (BrokenPipeError, ConnectionResetError):
        request.close_connection = True


ROUTES = [
    ("GET", "/slow", slow_route),
]
