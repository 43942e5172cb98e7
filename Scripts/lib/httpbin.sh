# Starts the loopback servers for tests and demos: httpbin under gunicorn, and the project's own
# test server (Scripts/testserver, standard-library Python) for routes httpbin lacks.
# Source it, then call `httpbin_start`: it exports HTTPBIN_URL and TESTSERVER_URL and stops both
# servers when the calling script exits, whether it succeeds or fails.

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
venv="$repo_root/.venv"

httpbin_install() {
    if [ ! -x "$venv/bin/gunicorn" ] || ! "$venv/bin/python" -c 'import httpbin' 2>/dev/null; then
        echo "==> Creating $venv with httpbin and gunicorn"
        python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$repo_root/Scripts/requirements-httpbin.txt"
    fi
}

free_port() {
    "$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Waits until `url` answers; prints `log` and fails if it never does.
# Stops a server started in the background ($1, its pid) and removes its folder ($2), if any.
stop_background() {
    if [ -n "$1" ] && kill -0 "$1" 2>/dev/null; then
        kill "$1" 2>/dev/null
        wait "$1" 2>/dev/null || true
    fi
    if [ -n "$2" ]; then rm -rf "$2"; fi
}

wait_for() {
    local url=$1 name=$2 log=$3
    for _ in $(seq 1 100); do
        if "$venv/bin/python" -c "import urllib.request,sys; urllib.request.urlopen('$url', timeout=1)" 2>/dev/null; then
            echo "==> $name is up at ${url%/*}"
            return 0
        fi
        sleep 0.1
    done
    echo "$name did not start; its log:" >&2
    cat "$log" >&2
    return 1
}

httpbin_start() {
    httpbin_install
    local port
    port=$(free_port)
    httpbin_log=$(mktemp -t httpbin-log.XXXXXX)
    # Threads let the slow endpoints (/delay, /drip) and 200 concurrent requests run side by side.
    # gunicorn closes an idle kept-alive connection after 2 s by default; on a loaded machine a test's
    # next call can come later than that and meet the keep-alive race, which a PATCH or POST rightly
    # does not survive. The race has its own route and tests; here idle connections stay open 75 s.
    "$venv/bin/gunicorn" --bind "127.0.0.1:$port" --workers 2 --worker-class gthread --threads 64 \
        --keep-alive 75 --timeout 120 --log-level warning httpbin:app >"$httpbin_log" 2>&1 &
    httpbin_pid=$!
    trap httpbin_stop EXIT
    export HTTPBIN_URL="http://127.0.0.1:$port"

    local test_port
    test_port=$(free_port)
    testserver_log=$(mktemp -t testserver-log.XXXXXX)
    "$venv/bin/python" "$repo_root/Scripts/testserver/server.py" "$test_port" >"$testserver_log" 2>&1 &
    testserver_pid=$!
    export TESTSERVER_URL="http://127.0.0.1:$test_port"

    wait_for "$HTTPBIN_URL/get" httpbin "$httpbin_log"
    wait_for "$TESTSERVER_URL/health" "the test server" "$testserver_log"
}

httpbin_stop() {
    local pid
    for pid in "${httpbin_pid:-}" "${testserver_pid:-}"; do
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null
            wait "$pid" 2>/dev/null || true
        fi
    done
    rm -f "${httpbin_log:-}" "${testserver_log:-}"
    # nginx (Scripts/lib/nginx.sh, Scripts/lib/tls.sh), Airflow (Scripts/lib/airflow.sh) and Label Studio
    # (Scripts/lib/labelstudio.sh) share this exit trap when a script started it.
    if declare -F nginx_stop >/dev/null; then nginx_stop; fi
    if declare -F tls_stop >/dev/null; then tls_stop; fi
    if declare -F airflow_stop >/dev/null; then airflow_stop; fi
    if declare -F labelstudio_stop >/dev/null; then labelstudio_stop; fi
}
