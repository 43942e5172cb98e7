"""The project's own loopback test server, beside httpbin: routes httpbin lacks.

Standard library only. Every `routes_*.py` module in this folder adds routes: it defines
`ROUTES`, a list of `(method, path_prefix, handler)`. A handler gets the request handler
(`http.server.BaseHTTPRequestHandler`) and writes the whole answer itself, so a route may
stream, stall or misbehave on purpose. The longest matching prefix wins; `method` "*" matches
any method.

Usage: python3 server.py PORT
"""
import importlib.util
import json
import pathlib
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

HERE = pathlib.Path(__file__).resolve().parent


def load_routes():
    routes = []
    for path in sorted(HERE.glob("routes_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        routes.extend(module.ROUTES)
    # Longest prefix first, so that /pages/link wins over /pages.
    return sorted(routes, key=lambda route: len(route[1]), reverse=True)


def send_json(request, status, value, headers=()):
    """Answers with `value` as JSON and a Content-Length."""
    body = json.dumps(value).encode()
    request.send_response(status)
    request.send_header("Content-Type", "application/json")
    request.send_header("Content-Length", str(len(body)))
    for name, header_value in headers:
        request.send_header(name, header_value)
    request.end_headers()
    request.wfile.write(body)


def base_url(request):
    """`http://host:port` as the client addressed this server (its Host header)."""
    return "http://" + request.headers.get("Host", "%s:%d" % request.server.server_address)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    routes = []

    def log_message(self, format, *args):  # quiet: tests read answers, not logs
        pass

    def dispatch(self):
        path = urlsplit(self.path).path
        for method, prefix, handler in self.routes:
            if (method == "*" or method == self.command) and path.startswith(prefix):
                return handler(self)
        send_json(self, 404, {"detail": "no route for %s %s" % (self.command, path)})

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = dispatch


def main():
    Handler.routes = load_routes()
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
