"""Trims a server's own OpenAPI document to the operations the generated clients' wire tests use.

Usage: python3 Scripts/openapi-trim.py [--server airflow|labelstudio] SERVED.json TRIMMED.json
(airflow by default: the GeneratedClient target; labelstudio: the GeneratedUploadClient target).

For both: keep the paths and methods in the server's KEEP list, and the components they reach
through `$ref` (transitively); keep the security schemes, drop the document's tags list.

Airflow's, and the only changes made to what the server wrote:
- `wait_dag_run_until_finished` answers 200 with no `Content-Type` and streams NDJSON, while its
  document lists `application/json` first: swift-openapi-runtime picks the first listed type when
  none is received and would buffer and decode the stream as one JSON value, so only the
  `application/x-ndjson` entry is kept (the generated client then hands the body over as it arrives);
- the generator skips a schema written `anyOf: [X, {"type": "null"}]` (OpenAPI 3.1's nullable,
  which FastAPI writes for every optional field): it would drop those properties and query
  parameters. Each becomes X, and a property so written leaves its object's `required` list, so
  the generated field is optional and a `null` from the server decodes as `nil`.

Label Studio's (1.23.2, Django REST framework and drf-spectacular), and the only changes made:
- `api_projects_create` (`POST /api/projects/`) takes its `ProjectRequest` body as JSON, form or
  multipart: only `application/json` is kept, because the generator writes a schema that a
  multipart body uses as multipart parts, which a JSON body cannot encode;
- `deprecated: true` is dropped from the properties (two in `Project` and `ProjectRequest`): the
  generator marks those members deprecated and then uses them itself, one warning each;
- where the server's answers send `null` for a property its document writes as required and not
  nullable, the property is marked `nullable` and leaves `required`, so the generated field is
  optional (a client decoding the document as written fails every create): in `UserSimple`,
  `avatar` (a user without a picture); in `Project`, the counters and `state` that the answer to a
  create leaves `null` (they are computed only when projects are listed), in ANSWERED_NULL;
- the import's answer writes `found_formats` as an array of strings, and the server sends an
  object, each file extension with its count (`{".json": 1}`): it becomes that object;
- `api_projects_import_create` (`POST /api/projects/{id}/import`) documents its body as an array
  of tasks under each of `application/json`, `multipart/form-data` and
  `application/x-www-form-urlencoded`. swift-openapi-generator needs an object for a multipart
  body and skips the operation's body otherwise; the server reads any file part it is sent. Only
  the `multipart/form-data` entry is kept, as an object with one required binary part, `file`.
"""
import json
import sys

AIRFLOW_KEEP = {
    "/api/v2/pools": ["get", "post"],
    "/api/v2/pools/{pool_name}": ["get", "delete"],
    "/api/v2/dags/{dag_id}/dagRuns": ["post"],
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}": ["patch"],
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/wait": ["get"],
}

LABELSTUDIO_KEEP = {
    "/api/projects/": ["post"],
    "/api/projects/{id}/import": ["post"],
    "/api/projects/{id}/tasks/": ["get"],
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


def airflow_fixes(paths):
    wait = paths["/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/wait"]["get"]
    content = wait["responses"]["200"]["content"]
    wait["responses"]["200"]["content"] = {"application/x-ndjson": content["application/x-ndjson"]}


def without_deprecated(value):
    if isinstance(value, list):
        return [without_deprecated(item) for item in value]
    if not isinstance(value, dict):
        return value
    return {key: without_deprecated(item) for key, item in value.items() if not (key == "deprecated" and item is True)}


ANSWERED_NULL = {
    "UserSimple": ["avatar"],
    "Project": [
        "finished_task_number", "ground_truth_number", "num_tasks_with_annotations",
        "skipped_annotations_number", "state", "task_number", "total_annotations_number",
        "total_predictions_number", "useful_annotation_number",
    ],
}


def labelstudio_component_fixes(components):
    for schema_name, names in ANSWERED_NULL.items():
        schema = components["schemas"][schema_name]
        for name in names:
            schema["properties"][name]["nullable"] = True
            schema["required"].remove(name)


def labelstudio_fixes(paths):
    answer = paths["/api/projects/{id}/import"]["post"]["responses"]["201"]["content"]["application/json"]["schema"]
    found = answer["properties"]["found_formats"]
    del found["items"]
    found.update({"type": "object", "additionalProperties": {"type": "integer"}})
    create = paths["/api/projects/"]["post"]["requestBody"]
    create["content"] = {"application/json": create["content"]["application/json"]}
    body = paths["/api/projects/{id}/import"]["post"]["requestBody"]
    body["content"] = {
        "multipart/form-data": {
            "schema": {
                "type": "object",
                "properties": {"file": {"type": "string", "format": "binary"}},
                "required": ["file"],
            }
        }
    }


# Each server: the operations kept, the changes to them and to the kept components, the changes
# to every kept part.
SERVERS = {
    "airflow": (AIRFLOW_KEEP, airflow_fixes, lambda components: None, without_null),
    "labelstudio": (LABELSTUDIO_KEEP, labelstudio_fixes, labelstudio_component_fixes, without_deprecated),
}


def main(server, source, destination):
    keep, fixes, component_fixes, cleanup = SERVERS[server]
    served = json.load(open(source))
    paths = {}
    for path, methods in keep.items():
        paths[path] = {method: served["paths"][path][method] for method in methods}
    fixes(paths)

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
    component_fixes(kept)

    trimmed = {key: served[key] for key in ("openapi", "info") if key in served}
    trimmed["paths"] = cleanup(paths)
    trimmed["components"] = cleanup(kept)
    with open(destination, "w") as file:
        json.dump(trimmed, file, indent=2, ensure_ascii=False)
        file.write("\n")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    server = "airflow"
    if arguments[:1] == ["--server"]:
        server, arguments = arguments[1], arguments[2:]
    main(server, arguments[0], arguments[1])
