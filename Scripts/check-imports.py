#!/usr/bin/env python3
"""Checks that every target imports only the modules its Package.swift entry declares (SwiftPM
lets a target import a module it reaches only through another dependency).

The other half of import hygiene is the compiler's: every target builds with the upcoming feature
`InternalImportsByDefault`, so a plain `import` is internal and a public signature that names a
type of a module imported without `public` fails to build. Run from the repository root; exit 1
on a problem.
"""
import glob
import json
import re
import subprocess
import sys

STANDARD = {"Testing", "Foundation", "FoundationXML", "Glibc", "Musl", "Darwin", "Synchronization", "Dispatch", "XCTest"}
package = json.loads(subprocess.run(["swift", "package", "dump-package"], capture_output=True, text=True, check=True).stdout)
problems = []
for target in package["targets"]:
    if target["type"] == "system":
        continue
    name = target["name"]
    declared = {value[0] for dependency in target["dependencies"] for value in dependency.values()}
    path = target.get("path") or (("Tests/" if target["type"] == "test" else "Sources/") + name)
    for file in glob.glob(path + "/**/*.swift", recursive=True):
        in_literal = False  # inside a multi-line string literal (generated code: TouchExport)
        for number, line in enumerate(open(file, encoding="utf-8"), 1):
            starts_inside = in_literal
            if line.count('"""') % 2 == 1:
                in_literal = not in_literal
            if starts_inside:
                continue
            match = re.match(r"\s*(?:@[\w()]+\s+)*(?:public |internal |package )?import (\w+)", line)
            if match and match.group(1) not in declared | STANDARD | {name}:
                problems.append(f"{file}:{number}: imports {match.group(1)}, which target {name} does not declare")
for problem in problems:
    print(problem)
print(f"check-imports: {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
