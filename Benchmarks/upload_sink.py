#!/usr/bin/env python3
"""Upload sink for the benchmarks: reads every byte of a request body, keeps none of it, and
answers {"received": N, "chunked": false}. A chunked body is refused with 411, because the
library promises a Content-Length for streamed bodies.

Usage: upload_sink.py PORT   (listens on 127.0.0.1)
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CHUNK = 1 << 20


class Sink(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower() or "Content-Length" not in self.headers:
            self.answer(411, {"error": "a Content-Length is required"})
            self.close_connection = True
            return
        remaining = int(self.headers["Content-Length"])
        received = 0
        buffer = memoryview(bytearray(CHUNK))
        while remaining > 0:
            count = self.rfile.readinto(buffer[: min(CHUNK, remaining)])
            if not count:
                break
            received += count
            remaining -= count
        self.answer(200, {"received": received, "chunked": False})

    do_PUT = do_POST

    def answer(self, status, document):
        body = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Sink).serve_forever()
