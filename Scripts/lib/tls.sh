# Starts nginx with TLS on loopback for the TLS tests, with certificates made for the run by
# openssl: a throwaway CA, a server certificate for 127.0.0.1 and localhost, an expired one, one
# for another host name, and a client identity for mutual TLS. Source it after
# Scripts/lib/httpbin.sh and Scripts/lib/nginx.sh, and call `tls_start`: it exports
#   TLS_URL             https://127.0.0.1:port, the CA's certificate for 127.0.0.1 and localhost;
#                       answers /doc.json, /redirect (302 to its own /doc.json) and
#                       /redirect-to-localhost (302 to the same server under the name localhost)
#   TLS_EXPIRED_URL     the same CA, a certificate that expired in 2020
#   TLS_WRONG_HOST_URL  the same CA, a certificate for wrong-host.example only
#   TLS_MUTUAL_URL      `ssl_verify_client on` with the CA: 200 with a client certificate, 400 without
#   TLS_CA              the CA's certificate (PEM)
#   TLS_CLIENT_P12, TLS_CLIENT_P12_PASSWORD  the client identity (PKCS #12) and its password
#   TLS_SERVER_PIN, TLS_CA_PIN  base64 SHA-256 of the server's and the CA's SubjectPublicKeyInfo
#   TLS_ACCESS_LOG      the access log of TLS_URL: one line per request that reached nginx
# The servers stop with the others when the calling script exits.

tls_make_certificates() {
    local dir=$1
    (
        cd "$dir"
        openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 \
            -subj "/CN=SwiftApiDsl throwaway test CA" 2>/dev/null
        # The server, expired, wrong-host and client certificates, each signed by the CA.
        sign() { # name subject extensions [startdate enddate]
            openssl req -new -newkey rsa:2048 -nodes -keyout "$1.key" -out "$1.csr" -subj "$2" 2>/dev/null
            printf '%s\n' "$3" >"$1.ext"
            if [ -n "${4:-}" ]; then
                # `openssl ca` is the one command that writes dates in the past.
                mkdir -p ca-db && : >ca-db/index.txt && echo 01 >ca-db/serial
                cat >ca.cnf <<CNF
[ca]
default_ca = throwaway
[throwaway]
dir = ca-db
database = ca-db/index.txt
serial = ca-db/serial
new_certs_dir = ca-db
default_md = sha256
policy = anything
unique_subject = no
[anything]
commonName = supplied
CNF
                openssl ca -batch -config ca.cnf -cert ca.pem -keyfile ca.key -in "$1.csr" -out "$1.pem" \
                    -startdate "$4" -enddate "$5" -extfile "$1.ext" -notext 2>/dev/null
            else
                openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -out "$1.pem" \
                    -days 2 -sha256 -extfile "$1.ext" 2>/dev/null
            fi
        }
        sign server "/CN=127.0.0.1" "subjectAltName=IP:127.0.0.1,DNS:localhost"
        sign expired "/CN=127.0.0.1" "subjectAltName=IP:127.0.0.1,DNS:localhost" 20200101000000Z 20200102000000Z
        sign wronghost "/CN=wrong-host.example" "subjectAltName=DNS:wrong-host.example"
        sign client "/CN=SwiftApiDsl test client" "extendedKeyUsage=clientAuth"
        # Algorithms every PKCS #12 reader knows (BoringSSL's and Apple's included).
        openssl pkcs12 -export -in client.pem -inkey client.key -certfile ca.pem -out client.p12 \
            -passout pass:"$TLS_CLIENT_P12_PASSWORD" -keypbe PBE-SHA1-3DES -certpbe PBE-SHA1-3DES -macalg sha1 2>/dev/null
        chmod a+r ./*
    )
}

# The base64 SHA-256 of the SubjectPublicKeyInfo of the certificate in `pem`: a pin.
tls_pin() {
    openssl x509 -in "$1" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64
}

tls_start() {
    nginx_install
    local bin dir good expired wronghost mutual
    bin=$(command -v nginx || echo /usr/sbin/nginx)
    tls_dir=$(mktemp -d -t swiftapidsl-tls.XXXXXX)
    dir=$tls_dir
    chmod 755 "$dir"
    mkdir -p "$dir/www" "$dir/conf"
    printf '{"id": 1, "title": "served over TLS"}\n' >"$dir/www/doc.json"
    chmod a+rx "$dir/www" && chmod a+r "$dir/www/"*
    export TLS_CLIENT_P12_PASSWORD="throwaway-$RANDOM"
    tls_make_certificates "$dir"
    good=$(free_port) expired=$(free_port) wronghost=$(free_port) mutual=$(free_port)
    : >"$dir/access.log" && chmod a+rw "$dir/access.log"
    tls_server_block() { # port certificate [extra directives]
        printf '    server {\n        listen 127.0.0.1:%s ssl;\n        ssl_certificate %s/%s.pem;\n        ssl_certificate_key %s/%s.key;\n        %s\n    }\n' \
            "$1" "$dir" "$2" "$dir" "$2" "${3:-}"
    }
    cat >"$dir/conf/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $dir/conf/nginx.pid;
error_log stderr error;
events { worker_connections 256; }
http {
    access_log off;
    types { application/json json; }
    default_type application/octet-stream;
    root $dir/www;
    client_body_temp_path $dir/conf/body;
    proxy_temp_path $dir/conf/proxy;
    fastcgi_temp_path $dir/conf/fastcgi;
    uwsgi_temp_path $dir/conf/uwsgi;
    scgi_temp_path $dir/conf/scgi;
$(tls_server_block "$good" server "access_log $dir/access.log; location = /redirect { return 302 /doc.json; }
        location = /redirect-to-localhost { return 302 https://localhost:$good/doc.json; }")
$(tls_server_block "$expired" expired)
$(tls_server_block "$wronghost" wronghost)
$(tls_server_block "$mutual" server "ssl_client_certificate $dir/ca.pem; ssl_verify_client on;")
}
CONF
    tls_log="$dir/nginx.log"
    "$bin" -p "$dir/conf" -c "$dir/conf/nginx.conf" >"$tls_log" 2>&1 &
    tls_pid=$!
    export TLS_URL="https://127.0.0.1:$good"
    export TLS_EXPIRED_URL="https://127.0.0.1:$expired"
    export TLS_WRONG_HOST_URL="https://127.0.0.1:$wronghost"
    export TLS_MUTUAL_URL="https://127.0.0.1:$mutual"
    export TLS_CA="$dir/ca.pem"
    export TLS_CLIENT_P12="$dir/client.p12"
    export TLS_ACCESS_LOG="$dir/access.log"
    TLS_SERVER_PIN=$(tls_pin "$dir/server.pem")
    TLS_CA_PIN=$(tls_pin "$dir/ca.pem")
    export TLS_SERVER_PIN TLS_CA_PIN
    local attempt
    for attempt in $(seq 1 100); do
        if curl -s -o /dev/null --cacert "$TLS_CA" "$TLS_URL/doc.json" 2>/dev/null; then
            : >"$TLS_ACCESS_LOG"
            echo "==> nginx with TLS is up at $TLS_URL"
            return 0
        fi
        sleep 0.1
    done
    echo "nginx with TLS did not start; its log:" >&2
    cat "$tls_log" >&2
    return 1
}

tls_stop() {
    stop_background "${tls_pid:-}" "${tls_dir:-}"
    tls_pid=""
}
