"""Routes for large transfers, which httpbin caps:
- `* /sink`: reads the request body (Content-Length or chunked), drops it, and answers
  `{"received": N}` with the number of bytes read.
- `GET /blob/N`: answers N bytes (`*`), with a Content-Length, written 64 KiB at a time.
- `* /echo-body`: answers the request body byte for byte (httpbin parses a multipart form and
  keeps none of its bytes), with the request's `X-` header fields.
- `* /redirect-after-body?status=S&to=URL`: reads the request body whole (httpbin's
  `/redirect-to` answers before reading it), then answers status S (307 unless given) with
  `Location: URL`, keeping the connection.
"""
from urllib.parse import parse_qs, urlsplit

from server import send_json

CHUNK = 64 * 1024


def read_chunked(request):
    received = 0
    while True:
        size = int(request.rfile.readline().split(b";")[0].strip() or b"0", 16)
        if size == 0:
            while request.rfile.readline() not in (b"\r\n", b"\n", b""):
                pass
            return received
        left = size
        while left:
            left -= len(request.rfile.read(min(left, CHUNK)))
        received += size
        request.rfile.readline()


def read_chunked_bytes(request):
    """The whole chunked body, for the routes that answer with it."""
    body = bytearray()
    while True:
        size = int(request.rfile.readline().split(b";")[0].strip() or b"0", 16)
        if size == 0:
            while request.rfile.readline() not in (b"\r\n", b"\n", b""):
                pass
            return bytes(body)
        body += request.rfile.read(size)
        request.rfile.readline()


def sized_body(request):
    """The body of `Content-Length` bytes, CHUNK bytes at a time; shorter if the client stops."""
    left = int(request.headers.get("Content-Length", "0"))
    while left:
        data = request.rfile.read(min(left, CHUNK))
        if not data:
            return
        yield data
        left -= len(data)


def read_whole(request):
    """Reads the request body, Content-Length or chunked, and returns how many bytes it had."""
    if request.headers.get("Transfer-Encoding", "").lower() == "chunked":
        return read_chunked(request)
    return sum(len(data) for data in sized_body(request))


def sink(request):
    send_json(request, 200, {"received": read_whole(request)})


def redirect_after_body(request):
    read_whole(request)
    query = parse_qs(urlsplit(request.path).query)
    request.send_response(int(query.get("status", ["307"])[0]))
    request.send_header("Location", query.get("to", ["/sink"])[0])
    request.send_header("Content-Length", "0")
    request.end_headers()


def blob(request):
    try:
        size = int(urlsplit(request.path).path.rsplit("/", 1)[-1])
    except ValueError:
        return send_json(request, 400, {"error": "size must be a number"})
    request.send_response(200)
    request.send_header("Content-Type", "application/octet-stream")
    request.send_header("Content-Length", str(size))
    request.end_headers()
    chunk = b"*" * CHUNK
    left = size
    while left:
        part = chunk[: min(left, CHUNK)]
        request.wfile.write(part)
        left -= len(part)


def echo_body(request):
    body = b"".join(sized_body(request))
    request.send_response(200)
    request.send_header("Content-Type", "application/octet-stream")
    request.send_header("Content-Length", str(len(body)))
    for name, value in request.headers.items():
        if name.lower().startswith("x-"):
            request.send_header(name, value)
    request.end_headers()
    request.wfile.write(body)


ROUTES = [
    ("*", "/sink", sink),
    ("GET", "/blob/", blob),
    ("*", "/echo-body", echo_body),
    ("*", "/redirect-after-body", redirect_after_body),
]
