"""Trims Airflow's own OpenAPI document to the operations the generated client's wire tests use.

Usage: python3 Scripts/openapi-trim.py SERVED.json TRIMMED.json

The filter, and the only changes made to what the server wrote:
- keep the paths and methods in KEEP, and the components they reach through `$ref` (transitively);
- keep the security schemes, drop the document's tags list;
- `wait_dag_run_until_finished` answers 200 with no `Content-Type` and streams NDJSON, while its
  document lists `application/json` first: swift-openapi-runtime picks the first listed type when
  none is received and would buffer and decode the stream as one JSON value, so only the
  `application/x-ndjson` entry is kept (the generated client then hands the body over as it arrives);
- the generator skips a schema written `anyOf: [X, {"type": "null"}]` (OpenAPI 3.1's nullable,
  which FastAPI writes for every optional field): it would drop those properties and query
  parameters. Each becomes X, and a property so written leaves its object's `required` list, so
  the generated field is optional and a `null` from the server decodes as `nil`.
"""
import json
import sys

KEEP = {
    "/api/v2/pools": ["get", "post"],
    "/api/v2/pools/{pool_name}": ["get", "delete"],
    "/api/v2/dags/{dag_id}/dagRuns": ["post"],
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}": ["patch"],
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/wait": ["get"],
}


def refs(value):
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "$ref" and isinstance(item, str):
                yield item
            else:
                yield from refs(item)
    elif isinstance(value, list):
        for item in value:
            yield from refs(item)


def is_nullable(schema):
    if not isinstance(schema, dict) or not isinstance(schema.get("anyOf"), list):
        return False
    options = schema["anyOf"]
    return len(options) == 2 and {"type": "null"} in options


def without_null(value):
    """`value` with every nullable `anyOf` replaced by its other schema (see the module's comment)."""
    if isinstance(value, list):
        return [without_null(item) for item in value]
    if not isinstance(value, dict):
        return value
    if is_nullable(value):
        other = next(option for option in value["anyOf"] if option != {"type": "null"})
        rest = {key: item for key, item in value.items() if key != "anyOf"}
        return without_null({**other, **rest})
    result = {key: without_null(item) for key, item in value.items()}
    properties = value.get("properties")
    if isinstance(properties, dict) and isinstance(value.get("required"), list):
        nullable = {name for name, schema in properties.items() if is_nullable(schema)}
        result["required"] = [name for name in value["required"] if name not in nullable]
        if not result["required"]:
            del result["required"]
    return result


def main(source, destination):
    served = json.load(open(source))
    paths = {}
    for path, methods in KEEP.items():
        paths[path] = {method: served["paths"][path][method] for method in methods}
    wait = paths["/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/wait"]["get"]
    content = wait["responses"]["200"]["content"]
    wait["responses"]["200"]["content"] = {"application/x-ndjson": content["application/x-ndjson"]}

    components = served.get("components", {})
    kept = {"securitySchemes": components.get("securitySchemes", {})}
    pending = list(refs(paths))
    while pending:
        ref = pending.pop()
        _, section, name = ref.lstrip("#/").split("/", 2)
        if name in kept.setdefault(section, {}):
            continue
        kept[section][name] = components[section][name]
        pending.extend(refs(components[section][name]))
    for section in kept:
        kept[section] = dict(sorted(kept[section].items()))

    trimmed = {key: served[key] for key in ("openapi", "info") if key in served}
    trimmed["paths"] = without_null(paths)
    trimmed["components"] = without_null(kept)
    with open(destination, "w") as file:
        json.dump(trimmed, file, indent=2, ensure_ascii=False)
        file.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
