"""A route that shows a request exactly as it arrived, for the header and URL fidelity tests:
- `* /raw-request...`: answers `{"method", "target", "headers", "framing", "body"}`: the request
  target as sent (path, percent-encoding and query untouched), every header field as a
  `[name, value]` pair in the order and case it came (repeated fields kept apart), whether the
  body came `chunked`, with a `length` or `none`, and the body as text.
"""
from routes_sink import read_chunked_bytes, sized_body
from server import send_json


def raw_request(request):
    if request.headers.get("Transfer-Encoding", "").lower() == "chunked":
        framing, body = "chunked", read_chunked_bytes(request)
    elif "Content-Length" in request.headers:
        framing, body = "length", b"".join(sized_body(request))
    else:
        framing, body = "none", b""
    send_json(request, 200, {
        "method": request.command,
        "target": request.path,
        "headers": [[name, value] for name, value in request.headers.items()],
        "framing": framing,
        "body": body.decode("utf-8", "replace"),
    })


ROUTES = [
    ("*", "/raw-request", raw_request),
]
