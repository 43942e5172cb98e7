"""Error documents as real APIs send them.

- `GET /errors/<status>`: answers `status` with a snake_case JSON error document,
  `{"error_code": "status_<status>", "error_message": "…", "retry_after_seconds": 3}`, the shape
  Django REST Framework and Vitesse-style APIs use.
"""
from urllib.parse import urlsplit

from server import send_json


def error_document(request):
    status_text = urlsplit(request.path).path.rsplit("/", 1)[-1]
    if not status_text.isdigit() or not 200 <= int(status_text) <= 599:
        return send_json(request, 404, {"detail": "use /errors/<status between 200 and 599>"})
    status = int(status_text)
    send_json(request, status, {
        "error_code": "status_%d" % status,
        "error_message": "the server answered %d on purpose" % status,
        "retry_after_seconds": 3,
    })


ROUTES = [
    ("GET", "/errors/", error_document),
]
