# Starts Label Studio (label-studio from PyPI, in its own git-ignored .venv-labelstudio) on
# loopback: the second third-party server a generated client of the tests (Tests/Fixtures) was written
# from, for an upload (its import takes files as multipart/form-data; Airflow's API takes none).
# Source it after Scripts/lib/httpbin.sh, call `labelstudio_start`, then `labelstudio_wait`
# before the tests that need it. It exports LABEL_STUDIO_URL (the server's root; the API is under
# /api, its OpenAPI document at /docs/api/schema/json/) and LABEL_STUDIO_TOKEN (the one user's
# API token, sent as `Authorization: Token <token>`), and is stopped with the other servers when
# the calling script exits. The server keeps its state in a throwaway SQLite database and does
# not ask PyPI for a newer version.

labelstudio_venv="$repo_root/.venv-labelstudio"

labelstudio_install() {
    if ! cmp -s "$repo_root/Scripts/requirements-labelstudio.txt" "$labelstudio_venv/requirements-labelstudio.txt" 2>/dev/null; then
        echo "==> Installing Label Studio into $labelstudio_venv"
        python3 -m venv "$labelstudio_venv"
        "$labelstudio_venv/bin/pip" install --quiet --disable-pip-version-check -r "$repo_root/Scripts/requirements-labelstudio.txt"
        cp "$repo_root/Scripts/requirements-labelstudio.txt" "$labelstudio_venv/requirements-labelstudio.txt"
    fi
}

# Launches the server and returns at once: creating a new database takes most of a minute, so a
# script starts it early and calls `labelstudio_wait` before the tests that need it.
labelstudio_start() {
    labelstudio_install
    local port
    port=$(free_port)
    labelstudio_dir=$(mktemp -d -t swiftapidsl-labelstudio.XXXXXX)
    export LABEL_STUDIO_TOKEN=swiftapidsl-wire-tests-only
    (
        export LABEL_STUDIO_BASE_DATA_DIR="$labelstudio_dir"
        export LATEST_VERSION_CHECK=false
        export SECRET_KEY=swiftapidsl-wire-tests-only
        # --user-token makes the user's token the given one; only the legacy token
        # authentication (`Authorization: Token <token>`) takes it.
        exec "$labelstudio_venv/bin/label-studio" start --no-browser --internal-host 127.0.0.1 --port "$port" \
            --data-dir "$labelstudio_dir" --username wire@example.com --password wire-password \
            --user-token "$LABEL_STUDIO_TOKEN" --enable-legacy-api-token >"$labelstudio_dir/labelstudio.log" 2>&1
    ) &
    labelstudio_pid=$!
    export LABEL_STUDIO_URL="http://127.0.0.1:$port"
}

# Waits until the server answers (at most five minutes); prints its log and fails if it never does.
labelstudio_wait() {
    local deadline=$((SECONDS + 300))
    while [ "$SECONDS" -lt "$deadline" ]; do
        if "$labelstudio_venv/bin/python" -c "import urllib.request; urllib.request.urlopen('$LABEL_STUDIO_URL/health', timeout=1)" 2>/dev/null; then
            echo "==> Label Studio is up at $LABEL_STUDIO_URL"
            return 0
        fi
        if ! kill -0 "$labelstudio_pid" 2>/dev/null; then break; fi
        sleep 0.5
    done
    echo "Label Studio did not start; its log:" >&2
    cat "$labelstudio_dir/labelstudio.log" >&2 2>/dev/null
    return 1
}

labelstudio_stop() {
    stop_background "${labelstudio_pid:-}" "${labelstudio_dir:-}"
    labelstudio_pid=""
}
