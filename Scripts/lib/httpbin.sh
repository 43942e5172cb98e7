# Starts httpbin under gunicorn on a free loopback port, for tests and demos.
# Source it, then call `httpbin_start`: it exports HTTPBIN_URL and stops the server when the
# calling script exits, whether it succeeds or fails.

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
venv="$repo_root/.venv"

httpbin_install() {
    if [ ! -x "$venv/bin/gunicorn" ] || ! "$venv/bin/python" -c 'import httpbin' 2>/dev/null; then
        echo "==> Creating $venv with httpbin and gunicorn"
        python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$repo_root/Scripts/requirements-httpbin.txt"
    fi
}

httpbin_start() {
    httpbin_install
    local port
    port=$("$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
    httpbin_log=$(mktemp -t httpbin-log.XXXXXX)
    # Threads let the slow endpoints (/delay, /drip) and 200 concurrent requests run side by side.
    "$venv/bin/gunicorn" --bind "127.0.0.1:$port" --workers 2 --worker-class gthread --threads 64 \
        --timeout 120 --log-level warning httpbin:app >"$httpbin_log" 2>&1 &
    httpbin_pid=$!
    trap httpbin_stop EXIT
    export HTTPBIN_URL="http://127.0.0.1:$port"
    for _ in $(seq 1 100); do
        if "$venv/bin/python" -c "import urllib.request,sys; urllib.request.urlopen('$HTTPBIN_URL/get', timeout=1)" 2>/dev/null; then
            echo "==> httpbin is up at $HTTPBIN_URL"
            return 0
        fi
        sleep 0.1
    done
    echo "httpbin did not start; its log:" >&2
    cat "$httpbin_log" >&2
    return 1
}

httpbin_stop() {
    if [ -n "${httpbin_pid:-}" ] && kill -0 "$httpbin_pid" 2>/dev/null; then
        kill "$httpbin_pid" 2>/dev/null
        wait "$httpbin_pid" 2>/dev/null || true
    fi
    rm -f "${httpbin_log:-}"
}
