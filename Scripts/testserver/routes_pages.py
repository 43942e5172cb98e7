"""Paginated routes, for the pagination wire tests. Seven items, `size` per page (3 by default).

GET /pages/drf?page=N       DRF style: {"count","next","previous","results"}, absolute links built
                            from the Host header; every other query item is carried into the links,
                            and a repeated one is refused with 400 (so a client that re-adds its
                            query to a followed link fails). `auth` echoes the Authorization header.
                            A page past the last answers 404 {"detail": "Invalid page."}, as DRF does.
GET /pages/link?page=N      a JSON array of items; an RFC 8288 Link header with several links,
                            relative URLs and quoted rel lists (`rel="prev first"`).
GET /pages/numbered?page=N  {"page","total_pages","results"}, no links at all.
GET /pages/loop?page=N      page 1 links to page 2, which links back to page 1.
"""
from urllib.parse import parse_qs, urlencode, urlsplit

from server import base_url, send_json

TOTAL = 7


def query(request):
    return parse_qs(urlsplit(request.path).query, keep_blank_values=True)


def page_of(request):
    """(page, size, other query items) or None after answering 400."""
    items = query(request)
    repeated = [name for name, values in items.items() if len(values) > 1]
    if repeated:
        send_json(request, 400, {"detail": "query item repeated: %s" % ", ".join(sorted(repeated))})
        return None
    page = int(items.pop("page", ["1"])[0])
    size = int(items.get("size", ["3"])[0])
    return page, size, {name: values[0] for name, values in items.items()}


def results(page, size):
    first = (page - 1) * size
    return ["item-%d" % number for number in range(first + 1, min(first + size, TOTAL) + 1)]


def last_page(size):
    return (TOTAL + size - 1) // size


def link(request, path, page, others):
    return "%s%s?%s" % (base_url(request), path, urlencode(dict(others, page=page)))


def drf(request):
    parsed = page_of(request)
    if parsed is None:
        return
    page, size, others = parsed
    if page < 1 or page > last_page(size):
        return send_json(request, 404, {"detail": "Invalid page."})
    send_json(request, 200, {
        "count": TOTAL,
        "next": link(request, "/pages/drf", page + 1, others) if page < last_page(size) else None,
        "previous": link(request, "/pages/drf", page - 1, others) if page > 1 else None,
        "results": results(page, size),
        "auth": request.headers.get("Authorization"),
    })


def link_header(request):
    parsed = page_of(request)
    if parsed is None:
        return
    page, size, _ = parsed
    links = []
    if page < last_page(size):
        links.append('</pages/link?page=%d>; rel="next"' % (page + 1))
    if page > 1:
        links.append('</pages/link?page=%d>; rel="prev first"; title="back, please"' % (page - 1))
    links.append('<%s/pages/link?page=%d>; rel=last' % (base_url(request), last_page(size)))
    # The next link is not always first: put it last on even pages.
    if page % 2 == 0:
        links.reverse()
    send_json(request, 200, results(page, size), headers=[("Link", ", ".join(links))])


def numbered(request):
    parsed = page_of(request)
    if parsed is None:
        return
    page, size, _ = parsed
    send_json(request, 200, {"page": page, "total_pages": last_page(size), "results": results(page, size)})


def loop(request):
    parsed = page_of(request)
    if parsed is None:
        return
    page = parsed[0]
    send_json(request, 200, {"next": base_url(request) + "/pages/loop?page=%d" % (2 if page == 1 else 1),
                             "results": ["loop-%d" % page]})


ROUTES = [
    ("GET", "/pages/drf", drf),
    ("GET", "/pages/link", link_header),
    ("GET", "/pages/numbered", numbered),
    ("GET", "/pages/loop", loop),
]
