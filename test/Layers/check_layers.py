#!/usr/bin/env python3
"""Checks that plugin/'s folders form layers: no folder includes, directly or
through others, a folder that includes it back. Prints the folder graph and
the cycles it finds (with one #include that makes each edge); exit 1 when
there is a cycle."""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), '..', '..', 'plugin')
edges = {}
for folder in sorted(os.listdir(root)):
    path = os.path.join(root, folder)
    if not os.path.isdir(path):
        continue
    edges.setdefault(folder, {})
    for name in sorted(os.listdir(path)):
        if not name.endswith(('.h', '.cpp')):
            continue
        for line in open(os.path.join(path, name), encoding='utf-8'):
            m = re.match(r'#include "([a-z]+)/', line)
            if m and m.group(1) != folder:
                edges[folder].setdefault(m.group(1), f'{folder}/{name}: {line.strip()}')

# A cycle exists when some folder reaches itself.
def reaches(a, b, seen):
    for n in edges.get(a, {}):
        if n == b:
            return True
        if n not in seen:
            seen.add(n)
            if reaches(n, b, seen):
                return True
    return False

bad = 0
for a in edges:
    print(f'{a} -> {", ".join(sorted(edges[a])) or "(nothing)"}')
for a in edges:
    for b, why in edges[a].items():
        if reaches(b, a, {b}):
            print(f'cycle: {a} -> {b} ({why}), and {b} reaches {a}')
            bad += 1
print('layers: ok' if not bad else f'layers: {bad} edges on cycles')
sys.exit(1 if bad else 0)
