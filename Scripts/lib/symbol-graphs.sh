# Dumps the public symbol graphs of the package's six product modules, every trait on, and prints
# the folder they are in. Used by Scripts/docs and Scripts/surface.
#
# `swift package dump-symbol-graph` takes no target: it also asks for the graph of the package's
# synthetic test module (SwiftApiDslPackageTests), which exists only once the tests were built, so
# on a fresh clone it exits 1 after writing every library's graph. That one error is stepped over;
# any other error, or a product module without its graph, fails.
# Usage: source Scripts/lib/symbol-graphs.sh; folder=$(dump_symbol_graphs [EXTRA-FLAGS...])
product_modules="SwiftApiDsl SwiftApiDslMock SwiftApiDslCache SwiftApiDslAsyncHTTPClient SwiftApiDslOpenAPI SwiftApiDslServerObservability"

dump_symbol_graphs() {
    local log status folder module unexpected
    log=$(mktemp)
    status=0
    swift package dump-symbol-graph --enable-all-traits --minimum-access-level public "$@" >"$log" 2>&1 || status=$?
    folder=$(sed -n 's/^Files written to //p' "$log" | tail -1)
    unexpected=$(grep '^error:' "$log" | grep -v "^error: Failed to emit symbol graph for 'SwiftApiDslPackage\(Discovered\)\?Tests'" || true)
    if [ -z "$folder" ] || [ -n "$unexpected" ]; then
        cat "$log" >&2; rm -f "$log"
        echo "dump-symbol-graph failed (exit $status)" >&2
        return 1
    fi
    rm -f "$log"
    for module in $product_modules; do
        if [ ! -f "$folder/$module.symbols.json" ]; then
            echo "no symbol graph for $module in $folder" >&2
            return 1
        fi
    done
    echo "$folder"
}
