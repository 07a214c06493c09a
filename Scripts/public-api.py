#!/usr/bin/env python3
"""The package's public API, one declaration a line, from the compiler's symbol graphs.

    Scripts/public-api.py write   # regenerate api/public-api.txt
    Scripts/public-api.py check   # exit 1, with the difference, when the API differs from it

It runs `swift package dump-symbol-graph --skip-synthesized-members` (public symbols, without
members a type only inherits from a protocol's default implementations) and lists, for every
library product's module, each public symbol as `MODULE KIND PATH: DECLARATION`, sorted. A
symbol that extends another module's type is listed under `MODULE@EXTENDED`. Adding, removing or
changing a public declaration changes the list; the check says which lines, so a change to the
surface users build on is a decision made in review, not an accident.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST = os.path.join(ROOT, "api", "public-api.txt")


def products():
    """The modules of the package's library products (what other packages can import)."""
    description = json.loads(
        subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=ROOT, check=True,
                       capture_output=True, text=True).stdout)
    modules = set()
    for product in description["products"]:
        if "library" in product["type"]:
            modules.update(product["targets"])
    return modules


def symbol_graph_directory(modules):
    """Dumps the symbol graphs and returns their directory. The dump also tries the test modules,
    which a plain `swift build` does not build, and exits non-zero for them: that is accepted
    as long as every product module's graph was written by this run."""
    for old in glob.glob(os.path.join(ROOT, ".build", "*", "symbolgraph")):
        shutil.rmtree(old)
    run = subprocess.run(["swift", "package", "dump-symbol-graph", "--skip-synthesized-members"], cwd=ROOT,
                         capture_output=True, text=True)
    found = re.findall(r"Files written to (\S+)", run.stdout + run.stderr)
    directory = found[-1] if found else None
    missing = [m for m in sorted(modules)
               if directory is None or not os.path.exists(os.path.join(directory, m + ".symbols.json"))]
    if missing:
        sys.stderr.write(run.stdout + run.stderr)
        sys.stderr.write(f"public-api: no symbol graph for {', '.join(missing)}\n")
        sys.exit(2)
    return directory


def lines(directory, modules):
    out = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".symbols.json"):
            continue
        label = name[: -len(".symbols.json")]
        if label.split("@")[0] not in modules:
            continue
        graph = json.load(open(os.path.join(directory, name)))
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            kind = symbol["kind"]["identifier"].removeprefix("swift.")
            path = ".".join(symbol["pathComponents"])
            declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
            declaration = " ".join(declaration.split())
            out.append(f"{label} {kind} {path}: {declaration}")
    return sorted(set(out))


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("write", "check"):
        sys.stderr.write(__doc__)
        sys.exit(2)
    modules = products()
    current = lines(symbol_graph_directory(modules), modules)
    if sys.argv[1] == "write":
        os.makedirs(os.path.dirname(LIST), exist_ok=True)
        with open(LIST, "w") as f:
            f.write("".join(line + "\n" for line in current))
        print(f"public-api: {len(current)} declarations written to api/public-api.txt")
        return
    committed = open(LIST).read().splitlines() if os.path.exists(LIST) else []
    added = sorted(set(current) - set(committed))
    removed = sorted(set(committed) - set(current))
    if added or removed:
        for line in removed:
            print(f"- {line}")
        for line in added:
            print(f"+ {line}")
        print(f"public-api: the public API differs from api/public-api.txt: {len(added)} added, {len(removed)} "
              "removed (above). If the change is meant, run Scripts/public-api.py write and commit the list.",
              file=sys.stderr)
        sys.exit(1)
    print(f"public-api: {len(current)} public declarations, as in api/public-api.txt")


if __name__ == "__main__":
    main()
