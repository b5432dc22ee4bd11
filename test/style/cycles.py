#!/usr/bin/env python3
"""No include or call circle in cli/: files that need each other in a loop.

A module is a .c file with the .h of the same name.  Module A includes
B when A.c or A.h has #include "B.h"; A calls B when A.o refers to a
symbol B.o defines (nm).  Any strongly connected component of more than
one module, in either graph, is a circle and fails the test.

Usage: cycles.py SOURCE_DIR OBJECT...
"""
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def module(path):
    return os.path.splitext(os.path.basename(path))[0]


def include_graph(src_dir):
    graph = {}
    for root, _, files in os.walk(src_dir):
        for name in files:
            if not name.endswith(('.c', '.h')):
                continue
            with open(os.path.join(root, name), encoding='utf-8') as f:
                text = f.read()
            deps = graph.setdefault(module(name), set())
            deps.update(module(h) for h in INCLUDE.findall(text))
    return graph


def call_graph(objects):
    defined, wanted = {}, {}
    for obj in objects:
        out = subprocess.run(['nm', obj], check=True, capture_output=True,
                             text=True).stdout
        mod = module(module(obj))          # x.c.o -> x
        wanted.setdefault(mod, set())
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in 'TDBR':
                defined[parts[2]] = mod
            elif len(parts) == 2 and parts[0] == 'U':
                wanted[mod].add(parts[1])
    return {m: {defined[s] for s in syms if s in defined} - {m}
            for m, syms in wanted.items()}


def circles(graph):
    """Tarjan's strongly connected components of more than one node."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in list(graph):
        if v not in index:
            visit(v)
    return found


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    # CMake hands a target's objects over as one ';'-separated list.
    src = sys.argv[1]
    objects = [o for arg in sys.argv[2:] for o in arg.split(';') if o]
    failed = 0
    for kind, graph in (('include', include_graph(src)),
                        ('call', call_graph(objects))):
        for comp in circles(graph):
            print(f'{kind} circle: {" <-> ".join(comp)}')
            failed += 1
        print(f'{kind} graph: {len(graph)} modules, '
              f'{sum(map(len, graph.values()))} edges')
    print(f'cycles: {0 if failed else 1} passed, {1 if failed else 0} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
