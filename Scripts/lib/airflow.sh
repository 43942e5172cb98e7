# Starts Apache Airflow's API server (airflow-core from PyPI, in its own git-ignored .venv-openapi)
# on loopback: the third-party server whose own OpenAPI document the generated client of
# Tests/Fixtures/GeneratedClient was written from. Source it after Scripts/lib/httpbin.sh, call
# `airflow_start`, then `airflow_wait` before the tests that need it. It exports AIRFLOW_URL (the
# server's root; the API is under /api/v2, tokens come from /auth/token and, expiring after
# one second, /auth/token/cli), AIRFLOW_USER and
# AIRFLOW_PASSWORD, and is stopped with the other servers when the calling script exits. The
# server keeps its state in a throwaway SQLite database; no scheduler runs, so Dag runs stay
# queued until a test sets their state.

airflow_venv="$repo_root/.venv-openapi"

airflow_install() {
    if ! cmp -s "$repo_root/Scripts/requirements-airflow.txt" "$airflow_venv/requirements-airflow.txt" 2>/dev/null; then
        echo "==> Installing Apache Airflow into $airflow_venv"
        python3 -m venv "$airflow_venv"
        "$airflow_venv/bin/pip" install --quiet --disable-pip-version-check -r "$repo_root/Scripts/requirements-airflow.txt"
        cp "$repo_root/Scripts/requirements-airflow.txt" "$airflow_venv/requirements-airflow.txt"
    fi
}

# Launches the server and returns at once: migrating a new database takes a minute or more, so a
# script starts it early and calls `airflow_wait` before the tests that need it.
airflow_start() {
    airflow_install
    local port
    port=$(free_port)
    airflow_dir=$(mktemp -d -t swiftapidsl-airflow.XXXXXX)
    export AIRFLOW_USER=wire
    export AIRFLOW_PASSWORD=wire-password
    printf '{"%s": "%s"}' "$AIRFLOW_USER" "$AIRFLOW_PASSWORD" >"$airflow_dir/passwords.json"
    (
        export AIRFLOW_HOME="$airflow_dir"
        export AIRFLOW__CORE__DAGS_FOLDER="$repo_root/Scripts/airflow/dags"
        export AIRFLOW__CORE__LOAD_EXAMPLES=False
        export AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS="$AIRFLOW_USER:admin"
        export AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_PASSWORDS_FILE="$airflow_dir/passwords.json"
        export AIRFLOW__API_AUTH__JWT_SECRET=swiftapidsl-wire-tests-only
        # Tokens from /auth/token/cli expire after one second, with no leeway: the refresh test's
        # expired token (Airflow answers it 401 "Token Expired"). /auth/token's last a day.
        export AIRFLOW__API_AUTH__JWT_CLI_EXPIRATION_TIME=1
        export AIRFLOW__API_AUTH__JWT_LEEWAY=0
        export AIRFLOW__LOGGING__LOGGING_LEVEL=WARNING
        "$airflow_venv/bin/airflow" db migrate >"$airflow_dir/setup.log" 2>&1 &&
            "$airflow_venv/bin/airflow" dags reserialize >>"$airflow_dir/setup.log" 2>&1 &&
            exec "$airflow_venv/bin/airflow" api-server --host 127.0.0.1 --port "$port" --workers 1 \
                >>"$airflow_dir/airflow.log" 2>&1
    ) &
    airflow_pid=$!
    export AIRFLOW_URL="http://127.0.0.1:$port"
}

# Waits until the server answers (at most five minutes); prints its logs and fails if it never does.
airflow_wait() {
    local deadline=$((SECONDS + 300))
    while [ "$SECONDS" -lt "$deadline" ]; do
        if "$airflow_venv/bin/python" -c "import urllib.request; urllib.request.urlopen('$AIRFLOW_URL/api/v2/monitor/health', timeout=1)" 2>/dev/null; then
            echo "==> Airflow is up at $AIRFLOW_URL"
            return 0
        fi
        if ! kill -0 "$airflow_pid" 2>/dev/null; then break; fi
        sleep 0.5
    done
    echo "Airflow did not start; its logs:" >&2
    cat "$airflow_dir/setup.log" "$airflow_dir/airflow.log" >&2 2>/dev/null
    return 1
}

airflow_stop() {
    stop_background "${airflow_pid:-}" "${airflow_dir:-}"
    airflow_pid=""
}
