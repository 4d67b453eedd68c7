#!/usr/bin/env python3
"""Checks that no library includes a header of a target it does not link.

Usage: check_layering.py SOURCE_DIR BUILD_DIR
BUILD_DIR is a Ninja build folder configured with --graphviz=BUILD_DIR/targets.dot
(scripts/check_layering.sh makes one). A source's target is read from build.ninja; a header
belongs to the target that compiles the source beside it (same name, .cc or .cu), else to the
targets compiling sources in its folder. Tests and benchmarks are left out: they may reach
across modules. Exit code 1 with one line per offending include.
"""
import os
import re
import sys


def link_graph(dot_path):
    names, edges = {}, {}
    for line in open(dot_path):
        node = re.match(r'\s*"(node\d+)" \[ label = "([^"]+)"', line)
        if node:
            names[node.group(1)] = node.group(2).replace("\\n", "")
        edge = re.match(r'\s*"(node\d+)" -> "(node\d+)"', line)
        if edge:
            edges.setdefault(edge.group(1), set()).add(edge.group(2))
    return {names[a]: {names[b] for b in bs} for a, bs in edges.items()}


def linked(graph, target):
    seen, todo = set(), [target]
    while todo:
        for dep in graph.get(todo.pop(), ()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen | {target}


def main(source_dir, build_dir):
    source_dir = os.path.abspath(source_dir)
    graph = link_graph(os.path.join(build_dir, "targets.dot"))
    owners = {}
    ninja = open(os.path.join(build_dir, "build.ninja")).read()
    rule = r"build \S+\.o: \w+?_COMPILER__(\w+?)_(?:unscanned_)?" \
           r"(?:Release|Debug|RelWithDebInfo|MinSizeRel) (\S+\.(?:cc|cu))"
    for target, source in re.findall(rule, ninja):
        path = os.path.relpath(os.path.normpath(os.path.join(build_dir, source)), source_dir)
        owners.setdefault(path, set()).add(target)
    folder_owners = {}
    for path, targets in owners.items():
        folder_owners.setdefault(os.path.dirname(path), set()).update(targets)
    problems = []
    for path, targets in sorted(owners.items()):
        if path.startswith(("tests/", "bench/", "..")):
            continue
        text = open(os.path.join(source_dir, path)).read()
        for include in re.findall(r'#include "([^"]+)"', text):
            stem = os.path.splitext(include)[0]
            header_owners = owners.get(stem + ".cc") or owners.get(stem + ".cu") or \
                folder_owners.get(os.path.dirname(include))
            if not header_owners:
                continue
            for target in targets:
                if not header_owners & linked(graph, target):
                    problems.append(f"{path} ({target}) includes {include} of "
                                    f"{', '.join(sorted(header_owners))}, which it does not link")
    for problem in problems:
        print(problem)
    print(f"check_layering: {len(owners)} sources, {len(problems)} includes of targets not linked")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
