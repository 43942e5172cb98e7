#!/usr/bin/env python3
"""Writes a package for each Package.swift fence (one that starts with `// swift-tools-version`)
of the given Markdown files into OUT/<document>-<line>/, for Scripts/check-install.

Each target the manifest declares gets one source file that imports every product the target
names with `.product(name:package:)` (a product of this library is named like its module), or,
for README.md's manifests, Consumers/Install/<target>/main.swift where it exists. Test targets get their file under
Tests/, the others under Sources/.
Usage: install_manifests.py OUT FILE.md...
"""
import pathlib
import re
import shutil
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
TARGET = re.compile(r'\.(target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)"')
PRODUCT = re.compile(r'\.product\(\s*name:\s*"([^"]+)"')


def manifests(path):
    """(line, text) of each Package.swift fence in `path`."""
    lines = path.read_text().splitlines()
    index = 0
    while index < len(lines):
        if lines[index].strip() == "```swift" and index + 1 < len(lines) and lines[index + 1].startswith("// swift-tools-version"):
            start, body = index + 1, []
            index += 1
            while lines[index].strip() != "```":
                body.append(lines[index])
                index += 1
            yield start + 1, "\n".join(body) + "\n"
        index += 1


def targets(manifest):
    """(kind, name, products) of each target, its products read up to the next target."""
    found = list(TARGET.finditer(manifest))
    for number, match in enumerate(found):
        end = found[number + 1].start() if number + 1 < len(found) else len(manifest)
        yield match.group(1), match.group(2), PRODUCT.findall(manifest[match.end():end])


def main():
    out = pathlib.Path(sys.argv[1])
    shutil.rmtree(out, ignore_errors=True)
    count = 0
    for document in map(pathlib.Path, sys.argv[2:]):
        for line, manifest in manifests(document):
            package = out / f"{document.stem}-{line}"
            package.mkdir(parents=True)
            (package / "Package.swift").write_text(manifest)
            for kind, name, products in targets(manifest):
                folder = package / ("Tests" if kind == "testTarget" else "Sources") / name
                folder.mkdir(parents=True)
                program = ROOT / "Consumers" / "Install" / name / "main.swift"
                if document.name == "README.md" and program.exists():
                    shutil.copy(program, folder / "main.swift")
                    continue
                imports = "".join(f"import {product}\n" for product in products)
                file = "main.swift" if kind == "executableTarget" else f"{name}.swift"
                (folder / file).write_text(imports)
            count += 1
    if count == 0:
        sys.exit("no Package.swift fence found")
    print(f"{count} manifests from the docs")


main()
