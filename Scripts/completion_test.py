#!/usr/bin/env python3
"""Discoverability test: what an editor's completion offers at the points a newcomer types first.

Starts sourcekit-lsp (shipped with the Swift toolchain) over Tests/Completion/Consumer, a small
package that depends on the library by path, and asks for completions as an editor does, at
`client.`, `mock.`, `.header(.`, `perform(` and `error.asRequestError.`. It prints each list in
the order an editor shows it (by `sortText`) and checks the orders that teach the API: every
verb offered, `get` among the first items and every shorthand verb above every method, only
`HeaderField` names after `.header(.`, and so on. The checks
compare groups of members, not totals, so that new members do not break them, except where a
new member would break the rule itself.

sourcekit-lsp prepares the package in a fresh temporary build folder each run (about 15 s on
two cores), so what it offers always comes from the current sources. Uses only the standard
library. Skips, with a message and exit status 0, when sourcekit-lsp cannot be found.
Usage: Scripts/completion_test.py [--verbose]
"""
import glob
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "Tests", "Completion", "Consumer")
SOURCE = os.path.join(PACKAGE, "Sources", "Consumer", "Consumer.swift")
TIMEOUT = 600  # seconds for the first preparation of the package (a build of the library)

VERBS = ["get", "post", "put", "patch", "delete", "head", "options", "request"]
SHORTHANDS = VERBS[:-1]
# `get` must be within this many items after `client.` and `mock.`.
VERB_RANK_LIMIT = 12
# The verbs, `request` and the endpoint calls are declared once, in `RequestStarting`'s extension,
# for the client and the mock alike. An editor ranks a type's own members above a protocol
# extension's, and in each group properties above methods, then by name. So the shorthand verbs
# are properties (each a `RequestVerb`, called like a method): they rank with the few other
# properties, above every method. `request` and the endpoint calls stay methods and rank by name
# among the configuration calls (`RequestModifiable`'s, shared with requests); they are checked as
# offered, not as ranked. `resource` comes from `SwiftApiDslCache`, which the consumer imports.
ENTRY_POINTS = ["request", "perform", "response", "urlRequest", "download", "pages", "resource"]
CLIENT_CONFIGURATION = ["modifier", "validator", "authentication", "transport", "mocked", "header",
                        "bearer", "accept", "timeoutInterval", "httpStatusCodeRange", "baseUrl",
                        "jsonEncoder", "jsonDecoder"]
MOCK_CONFIGURATION = ["client", "resultProvider", "stub", "appliesValidators", "isStrict", "latency",
                      "recordedRequests", "removeAllStubs", "removeRecordedRequests"]
HEADER_FIELDS = ["accept", "acceptEncoding", "acceptLanguage", "authorization", "cacheControl",
                 "contentDisposition", "contentEncoding", "contentLength", "contentType", "cookie", "ifNoneMatch",
                 "location", "proxyAuthorization", "userAgent"]
ERROR_SHORTCUTS = ["statusCode", "responseBody", "request", "validationError", "isCancellation"]
ERROR_PLUMBING = ["customMirror", "debugDescription", "description", "errorDescription"]


def find_sourcekit_lsp():
    found = shutil.which("sourcekit-lsp")
    if found:
        return found
    swift = shutil.which("swift")
    if swift:
        candidate = os.path.join(os.path.dirname(os.path.realpath(swift)), "sourcekit-lsp")
        if os.access(candidate, os.X_OK):
            return candidate
    return None


class LanguageServer:
    """A minimal JSON-RPC client over the server's stdin and stdout."""

    def __init__(self, executable, root, scratch):
        self.process = subprocess.Popen([executable, "--scratch-path", scratch], cwd=root, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.messages = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        stream = self.process.stdout
        while True:
            headers = {}
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.decode("ascii").strip()
                if not line:
                    break
                name, value = line.split(":", 1)
                headers[name.lower()] = value.strip()
            self.messages.put(json.loads(stream.read(int(headers["content-length"]))))

    def _write(self, message):
        data = json.dumps(message).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self.process.stdin.flush()

    def notify(self, method, params):
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    def call(self, method, params, timeout=120):
        self.next_id += 1
        request_id = self.next_id
        self._write({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        deadline = time.time() + timeout
        while True:
            remaining = deadline - time.time()
            if remaining <= 0:
                raise TimeoutError(f"{method} got no answer in {timeout} s")
            message = self.messages.get(timeout=remaining)
            if message is None:
                raise RuntimeError("sourcekit-lsp exited")
            if "method" in message and "id" in message:  # a request from the server: accept it
                self._write({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif message.get("id") == request_id:
                if "error" in message:
                    raise RuntimeError(f"{method} failed: {message['error']}")
                return message.get("result")

    def close(self):
        try:
            self.call("shutdown", None, timeout=30)
            self.notify("exit", None)
            self.process.wait(timeout=30)
        except Exception:
            self.process.kill()


def base_name(item):
    """`get(path: …)` → `get`; `baseUrl` → `baseUrl`."""
    return item["label"].split("(")[0].strip()


class Session:
    def __init__(self, server):
        self.server = server
        self.uri = "file://" + SOURCE
        self.lines = open(SOURCE, encoding="utf-8").read().split("\n")
        self.version = 1
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.uri, "languageId": "swift", "version": 1, "text": "\n".join(self.lines)}})

    def complete(self, marker, typed):
        """The items offered after `typed`, written in place of the line holding `marker`."""
        line = next(i for i, text in enumerate(self.lines) if f"/*complete:{marker}*/" in text)
        lines = list(self.lines)
        lines[line] = "    " + typed
        self.version += 1
        self.server.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri, "version": self.version},
            "contentChanges": [{"text": "\n".join(lines)}]})
        result = self.server.call("textDocument/completion", {
            "textDocument": {"uri": self.uri},
            "position": {"line": line, "character": 4 + len(typed)}})
        items = result.get("items", []) if isinstance(result, dict) else (result or [])
        # What an editor shows: by sortText, then as the server listed them.
        return [item for _, item in sorted(enumerate(items), key=lambda p: (p[1].get("sortText", ""), p[0]))]


class Checks:
    def __init__(self):
        self.failures = []

    def expect(self, condition, message):
        print(("  ok   " if condition else "  FAIL ") + message)
        if not condition:
            self.failures.append(message)


def positions(items, names):
    return [i for i, item in enumerate(items) if base_name(item) in names]


def show(title, items, verbose):
    print(f"\n{title}: {len(items)} items")
    for index, item in enumerate(items if verbose else items[:40]):
        print(f"  {index:3} {item['label']}  ->  {item.get('detail', '')}")
    if not verbose and len(items) > 40:
        print(f"  … {len(items) - 40} more (--verbose shows all)")


def check_verbs_first(checks, items, configuration, what):
    verbs = positions(items, SHORTHANDS)
    config = positions(items, configuration)
    methods = [i for i, item in enumerate(items) if "(" in item["label"]]
    checks.expect(sorted({base_name(items[i]) for i in positions(items, VERBS)}) == sorted(VERBS),
                  f"{what} offers every verb: {', '.join(VERBS)}")
    checks.expect(sorted({base_name(items[i]) for i in positions(items, ENTRY_POINTS)}) == sorted(ENTRY_POINTS),
                  f"{what} offers every entry point: {', '.join(ENTRY_POINTS)}")
    checks.expect(bool(config), f"{what} offers configuration members too")
    get = positions(items, ["get"])
    checks.expect(bool(get) and get[0] < VERB_RANK_LIMIT,
                  f"{what}: get is within the first {VERB_RANK_LIMIT} items (at {get[0] if get else None})")
    checks.expect(bool(verbs) and bool(methods) and max(verbs) < min(methods),
                  f"{what}: every shorthand verb ranks above every method, configuration calls included "
                  f"(last verb at {max(verbs) if verbs else None}, first method at {min(methods) if methods else None})")


def main():
    verbose = "--verbose" in sys.argv
    executable = find_sourcekit_lsp()
    if executable is None:
        print("completion test SKIPPED: sourcekit-lsp not found (it ships with the Swift toolchain)")
        return 0
    started = time.time()
    # A fresh build folder each run: a reused one can keep modules built from older sources.
    workspace = tempfile.mkdtemp(prefix="completion-test-")
    build = os.path.join(workspace, "build")
    server = LanguageServer(executable, PACKAGE, build)
    checks = Checks()
    try:
        server.call("initialize", {"processId": os.getpid(), "rootUri": "file://" + PACKAGE,
                                   "capabilities": {"textDocument": {"completion": {
                                       "completionItem": {"snippetSupport": True}}}}})
        server.notify("initialized", {})
        session = Session(server)
        # Wait until the package is prepared (the library built for the index), as an editor
        # does in the background; completion on an unprepared file offers nothing of the library.
        server.call("workspace/synchronize", {"index": True}, timeout=TIMEOUT)
        print(f"sourcekit-lsp ready after {time.time() - started:.0f} s")

        client = session.complete("client", "_ = client.")
        show("client.", client, verbose)
        check_verbs_first(checks, client, CLIENT_CONFIGURATION, "client.")

        verb_arguments = session.complete("client", '_ = client.get("users", ')
        checks.expect("bypassAuth: Bool" in [item["label"] for item in verb_arguments],
                      'client.get("users", offers the verb\'s argument labels (bypassAuth:)')

        mock = session.complete("mock", "_ = mock.")
        show("mock.", mock, verbose)
        check_verbs_first(checks, mock, MOCK_CONFIGURATION, "mock.")
        checks.expect("recordedRequests(method: HttpMethod?, path: String?)" in [i["label"] for i in mock],
                      "mock. offers recordedRequests(method:path:)")
        deprecated = positions(mock, ["requests"])
        checks.expect(all(p > max(positions(mock, MOCK_CONFIGURATION)) for p in deprecated),
                      "mock.: the deprecated requests(method:path:) ranks below every current member")

        header = session.complete("header", "_ = client.header(.")
        show(".header(.", header, verbose)
        string_members = [i["label"] for i in header if "(self: String" in i["label"] or i.get("detail") in ("String", "String?")
                          and base_name(i) not in ("RawValue", "StringLiteralType", "ExtendedGraphemeClusterLiteralType",
                                                    "UnicodeScalarLiteralType")]
        checks.expect(not string_members, f".header(. offers no String members (seen: {string_members[:5]})")
        checks.expect(header and all(base_name(i) in HEADER_FIELDS for i in header[:len(HEADER_FIELDS)]),
                      f".header(. lists the {len(HEADER_FIELDS)} HeaderField constants first")
        checks.expect(sorted(base_name(i) for i in header if base_name(i) in HEADER_FIELDS) == sorted(HEADER_FIELDS),
                      f".header(. offers every HeaderField constant, once")
        missing_docs = [i["label"] for i in header if base_name(i) in HEADER_FIELDS and not i.get("documentation")]
        checks.expect(not missing_docs, f".header(. every constant has a doc comment (missing: {missing_docs})")
        checks.expect(len(header) < 40, f".header(. offers a short list ({len(header)} items, fewer than 40)")
        duplicates = sorted({i["label"] for i in header if [j["label"] for j in header].count(i["label"]) > 1})
        checks.expect(not duplicates, f".header(. no two entries with the same label (seen: {duplicates})")

        method = session.complete("header", "_ = client.request(.")
        show("request(.", method, verbose)
        method_names = [base_name(i) for i in method[:7]]
        checks.expect(sorted(method_names) == sorted(VERBS[:-1]), "request(. lists the 7 HttpMethod constants first")
        missing_docs = [i["label"] for i in method[:7] if not i.get("documentation")]
        checks.expect(not missing_docs, f"request(. every HttpMethod constant has a doc comment (missing: {missing_docs})")

        builder = session.complete("perform", '_ = client.get("user/profile").')
        performs = [item for item in builder if base_name(item) == "perform"]
        show('client.get("user/profile"). — perform entries', performs, verbose)
        labels = [item["label"].split(" async")[0] for item in performs]
        checks.expect("perform(as: Decodable.Type)" in labels and "perform(as: Response<Decodable>.Type)" in labels,
                      "perform: offers the typed forms perform(as: T.Type) and perform(as: Response<T>.Type)")
        checks.expect(not any("(type:" in label or "(_ " in label for label in labels),
                      "perform: no parameter name shown where there is no label")
        checks.expect(len(performs) <= 9, f"perform: the unavailable non-Decodable forms are not offered ({len(performs)} entries)")
        verbs_and_perform = positions(builder, ["perform", "download"])
        config = positions(builder, ["client", "endpoint", "jsonEncoder",
                                     "modifier", "validator", "header", "bearer", "accept"])
        checks.expect(bool(verbs_and_perform) and bool(config) and max(verbs_and_perform) < min(config),
                      "request.: perform and download rank above the request's properties and modifiers")

        arguments = session.complete("perform", '_ = client.get("user/profile").perform(')
        show("perform(", arguments, verbose)
        argument_labels = [item["label"] for item in arguments if item["label"].endswith(":") or ": " in item["label"]
                           and item["label"].split(":")[0].isidentifier() and item.get("kind") != 7]
        checks.expect(argument_labels.count("jsonDecoder: (any ResponseDecoder)?") == 1,
                      f"perform( offers the label jsonDecoder: once, not once per overload ({argument_labels[:6]})")

        errors = session.complete("requestError", "_ = error.asRequestError.")
        show("error.asRequestError.", errors, verbose)
        shortcuts = positions(errors, ERROR_SHORTCUTS)
        plumbing = positions(errors, ERROR_PLUMBING)
        checks.expect(sorted({base_name(errors[i]) for i in shortcuts}) == sorted(ERROR_SHORTCUTS),
                      f"error.asRequestError. offers {', '.join(ERROR_SHORTCUTS)}")
        checks.expect(bool(shortcuts) and bool(plumbing) and max(shortcuts) < min(plumbing),
                      "error.asRequestError.: statusCode, responseBody… rank above description, customMirror…")
    finally:
        server.close()
        shutil.rmtree(workspace, ignore_errors=True)
        # SwiftPM keeps its lock files for a build folder in the temporary directory, named after it.
        for lock in glob.glob(os.path.join(tempfile.gettempdir(), build.replace(os.sep, "_") + "*.lock")):
            os.remove(lock)

    print(f"\ncompletion test: {len(checks.failures)} failure(s) in {time.time() - started:.0f} s")
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())
