"""Misbehaving answers for the fault suite: each route breaks HTTP in one known way.

Every route here writes raw bytes to the socket (never through send_response), so the failure is
exactly the one named, and then closes the connection unless it says otherwise. Routes are under
/faults/; GET unless noted.
"""
import gzip
import json
import socket
import struct
import threading
import time
from urllib.parse import parse_qs, urlsplit



def raw(request, data, close=True):
    """Writes `data` as is; closes the connection afterwards unless `close` is False."""
    request.wfile.write(data)
    request.wfile.flush()
    request.close_connection = close


def drain_body(request):
    """Reads the request body that Content-Length announces, so an answer is not a reset."""
    length = int(request.headers.get("Content-Length") or 0)
    while length > 0:
        chunk = request.rfile.read(min(length, 65536))
        if not chunk:
            break
        length -= len(chunk)


def short_body(request):
    # Announces 100 bytes, sends 10, closes.
    raw(request, b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n0123456789")


def close_after_headers(request):
    raw(request, b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n")


def close_before_any_byte(request):
    request.close_connection = True


def reset(request):
    # SO_LINGER with a zero timeout turns close() into a TCP reset.
    request.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    request.connection.close()
    request.close_connection = True


def garbage_status(request):
    raw(request, b"HTCPCP/1.0 I'm a teapot, not HTTP\r\n\r\n")


def http10_read_to_close(request):
    # No Content-Length: the body ends when the connection closes.
    raw(request, b"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nread until close")


def invalid_chunked(request):
    raw(request, b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nnot a chunk size\r\n0\r\n\r\n")


def truncated_chunked(request):
    raw(request, b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n64\r\nonly ten b")


def chunked_with_trailers(request):
    raw(request, b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum\r\n\r\n"
                 b"5\r\nhello\r\n0\r\nX-Checksum: abc123\r\n\r\n", close=False)


def stall_after_headers(request):
    # Headers, then silence for 30 s (an idle timeout must fire long before).
    raw(request, b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\n", close=False)
    time.sleep(30)
    request.close_connection = True


def slow_drip(request):
    # 10 bytes, one every `gap` seconds (0.2 by default, `?gap=0.4`): never idle for long, so an
    # idle timeout longer than the gap must not fire, though the whole body takes 10 gaps.
    gap = float(parse_qs(urlsplit(request.path).query).get("gap", ["0.2"])[0])
    raw(request, b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\n", close=False)
    for index in range(10):
        time.sleep(gap)
        raw(request, str(index).encode(), close=False)


def informational_first(request):
    # A 1xx interim response (103 Early Hints), then the final one.
    raw(request, b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
                 b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nfinal", close=False)


def no_content_with_body(request):
    # A 204 must not have a body; this one says it has 5 bytes, then closes.
    raw(request, b"HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\nextra")


def huge_header(request):
    value = b"x" * (1024 * 1024)
    raw(request, b"HTTP/1.1 200 OK\r\nX-Huge: " + value + b"\r\nContent-Length: 2\r\n\r\nok")


def many_headers(request):
    fields = b"".join(b"X-Field-%d: %d\r\n" % (index, index) for index in range(5000))
    raw(request, b"HTTP/1.1 200 OK\r\n" + fields + b"Content-Length: 2\r\n\r\nok")


def redirect_loop(request):
    raw(request, b"HTTP/1.1 302 Found\r\nLocation: /faults/redirect-loop\r\nContent-Length: 0\r\n\r\n", close=False)


def redirect_to_file(request):
    raw(request, b"HTTP/1.1 302 Found\r\nLocation: file:///etc/passwd\r\nContent-Length: 0\r\n\r\n", close=False)


def redirect_to_ftp(request):
    raw(request, b"HTTP/1.1 302 Found\r\nLocation: ftp://127.0.0.1/file\r\nContent-Length: 0\r\n\r\n", close=False)


def huge_declared_length(request):
    # Declares 2 GiB, sends 10 bytes, closes.
    raw(request, b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 2147483648\r\n\r\n0123456789")


def corrupt_gzip(request):
    body = gzip.compress(b'{"hello": "world"}' * 100)
    body = body[:20] + b"\x00garbage\xff" * 8 + body[-8:]
    raw(request, b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
                 b"Content-Length: %d\r\n\r\n" % len(body) + body)


def dies_half_way(request):
    # Announces 1 MiB, sends half, closes: a download that dies half-way.
    raw(request, b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 1048576\r\n\r\n"
                 + b"a" * 524288)


def conflicting_lengths(request):
    raw(request, b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nContent-Length: 10\r\n\r\n0123456789")


def cut_upload(request):
    # Reads 64 KiB of the request body, then resets the connection mid-upload.
    request.rfile.read(65536)
    reset(request)


def answer_unread(request):
    # Answers at once and closes the connection without reading the request body: the client,
    # still sending, meets a closed connection (a reset, or a broken pipe on its next write).
    raw(request, b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok")


race_lock = threading.Lock()
race_requests = {}  # key -> requests received (answered or dropped)


def keep_alive_race(request):
    # `/faults/keep-alive-race/<key>`: the keep-alive race, without timing. The first request on a
    # connection is answered and the connection kept; the next request that arrives on that same
    # connection is read (body included) and the connection closed without a byte of answer, as
    # a server does when it closes an idle connection just as the client writes to it.
    # The handler object lives as long as its connection, so it carries the connection's state.
    # With `?drop=second`, the second request for the key is the one dropped, whichever
    # connection it came on: for an engine whose pool may open a new connection for it.
    parts = urlsplit(request.path)
    key = parts.path[len("/faults/keep-alive-race/"):]
    drain_body(request)
    with race_lock:
        race_requests[key] = race_requests.get(key, 0) + 1
        count = race_requests[key]
    dropped = count == 2 if parts.query == "drop=second" else getattr(request, "race_answered", False)
    if dropped:
        request.wfile.flush()
        request.connection.shutdown(socket.SHUT_RDWR)
        request.close_connection = True
        return
    request.race_answered = True
    raw(request, b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok", close=False)


def keep_alive_race_stats(request):
    # `/faults/keep-alive-race-stats/<key>`: {"requests": n} for the key.
    key = urlsplit(request.path).path[len("/faults/keep-alive-race-stats/"):]
    with race_lock:
        body = json.dumps({"requests": race_requests.get(key, 0)}).encode()
    raw(request, b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body,
        close=False)


ROUTES = [
    ("GET", "/faults/short-body", short_body),
    ("GET", "/faults/close-after-headers", close_after_headers),
    ("GET", "/faults/close-before-any-byte", close_before_any_byte),
    ("GET", "/faults/reset", reset),
    ("GET", "/faults/garbage-status", garbage_status),
    ("GET", "/faults/http10-read-to-close", http10_read_to_close),
    ("GET", "/faults/invalid-chunked", invalid_chunked),
    ("GET", "/faults/truncated-chunked", truncated_chunked),
    ("GET", "/faults/chunked-with-trailers", chunked_with_trailers),
    ("GET", "/faults/stall-after-headers", stall_after_headers),
    ("GET", "/faults/slow-drip", slow_drip),
    ("GET", "/faults/informational-first", informational_first),
    ("GET", "/faults/no-content-with-body", no_content_with_body),
    ("GET", "/faults/huge-header", huge_header),
    ("GET", "/faults/many-headers", many_headers),
    ("GET", "/faults/redirect-loop", redirect_loop),
    ("GET", "/faults/redirect-to-file", redirect_to_file),
    ("GET", "/faults/redirect-to-ftp", redirect_to_ftp),
    ("GET", "/faults/huge-declared-length", huge_declared_length),
    ("GET", "/faults/corrupt-gzip", corrupt_gzip),
    ("GET", "/faults/dies-half-way", dies_half_way),
    ("GET", "/faults/conflicting-lengths", conflicting_lengths),
    ("*", "/faults/cut-upload", cut_upload),
    ("*", "/faults/answer-unread", answer_unread),
    ("*", "/faults/keep-alive-race/", keep_alive_race),
    ("GET", "/faults/keep-alive-race-stats/", keep_alive_race_stats),
]
