# Starts nginx (Debian's package, installed on first use) on loopback as a real static-file
# server for the wire tests: it answers with its own ETag, Last-Modified, 304 and Range/206
# behaviour, which no server of ours imitates. Source it after Scripts/lib/httpbin.sh and call
# `nginx_start` after `httpbin_start`: it exports NGINX_URL (the server's root) and NGINX_ROOT (the
# folder it serves, world-readable, into which tests may write their own files) and is stopped with
# the other servers when the calling script exits.

nginx_install() {
    if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
        echo "==> Installing nginx"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
    fi
}

nginx_start() {
    nginx_install
    local bin port
    bin=$(command -v nginx || echo /usr/sbin/nginx)
    nginx_dir=$(mktemp -d -t swiftapidsl-nginx.XXXXXX)
    # nginx's workers run as nobody: the folders and files they serve must be world-readable.
    chmod 755 "$nginx_dir"
    mkdir -p "$nginx_dir/www" "$nginx_dir/conf"
    chmod 777 "$nginx_dir/www"
    printf '{"id": 1, "title": "served by nginx"}\n' >"$nginx_dir/www/doc.json"
    # 1 MiB whose byte at offset i is i % 251: a test can check any range of it without a copy.
    "$venv/bin/python" -c 'import sys; sys.stdout.buffer.write(bytes(i % 251 for i in range(1 << 20)))' >"$nginx_dir/www/blob.bin"
    chmod a+r "$nginx_dir/www/"*
    port=$(free_port)
    cat >"$nginx_dir/conf/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $nginx_dir/conf/nginx.pid;
error_log stderr error;
events { worker_connections 1024; }
http {
    access_log off;
    types { application/json json; text/plain txt; }
    default_type application/octet-stream;
    client_body_temp_path $nginx_dir/conf/body;
    proxy_temp_path $nginx_dir/conf/proxy;
    fastcgi_temp_path $nginx_dir/conf/fastcgi;
    uwsgi_temp_path $nginx_dir/conf/uwsgi;
    scgi_temp_path $nginx_dir/conf/scgi;
    server {
        listen 127.0.0.1:$port;
        root $nginx_dir/www;
        # Files under /cached/ carry a freshness lifetime, for the HTTP cache's tests.
        location /cached/ { add_header Cache-Control "max-age=60"; }
        # Files under /openapi/ stand in for a generated client's operations, whose paths have no
        # extension: JSON, fresh for a minute (GeneratedClientWireTests' cache test).
        location /openapi/ { default_type application/json; add_header Cache-Control "max-age=60"; }
    }
}
CONF
    nginx_log="$nginx_dir/nginx.log"
    "$bin" -p "$nginx_dir/conf" -c "$nginx_dir/conf/nginx.conf" >"$nginx_log" 2>&1 &
    nginx_pid=$!
    export NGINX_URL="http://127.0.0.1:$port"
    export NGINX_ROOT="$nginx_dir/www"
    wait_for "$NGINX_URL/doc.json" nginx "$nginx_log"
}

nginx_stop() {
    stop_background "${nginx_pid:-}" "${nginx_dir:-}"
    nginx_pid=""
}
