#!/usr/bin/env python3
"""Import cycles among gpn's source files and among its top-level modules.

Reads every `src/**/*.rs`, takes each path that names the crate's items (`crate::a::b`,
`super::x`, `self::x`, and in `lib.rs`/`main.rs` plain `a::b` of a declared module), maps it to
the deepest source file that defines that module, and prints each strongly connected component
of more than one file (and of more than one top-level module). Exit status 1 when there is one.
Test code (`#[cfg(test)]` items, and files declared by `#[cfg(test)] mod x;`) is left out: a test may reach anywhere.

usage: scripts/import_cycles.py [--layers] [SRC_DIR]      (default: src)
  --layers   also print what each top-level module imports, lowest layer first
"""
import os
import re
import sys

args = [a for a in sys.argv[1:] if a != "--layers"]
layers = "--layers" in sys.argv[1:]
src = args[0] if args else "src"


def module_of(path):
    """The module path of a source file: src/a/b.rs and src/a/b/mod.rs are ("a", "b")."""
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel[-1] == "mod":
        rel = rel[:-1]
    if rel in (["lib"], ["main"]):
        return ()
    return tuple(rel)


files = {}
for root, _, names in os.walk(src):
    for n in names:
        if n.endswith(".rs"):
            p = os.path.join(root, n)
            files[module_of(p)] = p
# main.rs is its own crate (it reaches the library as `gpn::`); keep lib.rs as the root.
files[()] = os.path.join(src, "lib.rs")
modules = set(files)


test_files = set()


def strip_tests(text, here=()):
    """Drops `#[cfg(test)]` items (a `mod ... { ... }` block or one `use` line) and comments."""
    text = re.sub(r"//[^\n]*", "", text)
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*", text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        j = m.end()
        if re.match(r"(pub(\([^)]*\))?\s+)?mod\b", text[j:]):
            brace = text.find("{", j)
            semi = text.find(";", j)
            if semi != -1 and (brace == -1 or semi < brace):
                # `#[cfg(test)] mod name;`: the file of that module is test code.
                decl = re.search(r"mod\s+([A-Za-z_][A-Za-z0-9_]*)", text[j:semi])
                if decl:
                    test_files.add(here + (decl.group(1),))
                i = semi + 1
                continue
            depth, k = 0, brace
            while k < len(text):
                if text[k] == "{":
                    depth += 1
                elif text[k] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            i = k + 1
        else:
            semi = text.find(";", j)
            i = semi + 1 if semi != -1 else len(text)
    out.append(text[i:])
    return "".join(out)


def expand_use(body):
    """`a::{b, c::{d, e}}` -> ["a::b", "a::c::d", "a::c::e"] (enough for module resolution)."""
    body = re.sub(r"\s+", "", body)
    m = re.match(r"^(.*?)\{(.*)\}$", body)
    if not m:
        return [body]
    prefix, inner = m.groups()
    parts, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    parts.append(cur)
    return [x for p in parts if p for x in expand_use(prefix + p)]


def resolve(here, path):
    """The module a path names, or None when it is outside the crate."""
    segs = [s for s in path.split("::") if s and s != "*"]
    segs = [re.sub(r"\bas\b.*", "", s) for s in segs]
    if not segs:
        return None
    if segs[0] == "crate":
        base, rest = (), segs[1:]
    elif segs[0] in ("super", "self"):
        # A file `a/b.rs` is module a::b: `self` is a::b, `super` is a.
        base = list(here)
        while segs and segs[0] in ("super", "self"):
            if segs[0] == "super":
                base = base[:-1]
            segs = segs[1:]
        base, rest = tuple(base), segs
    elif here == () and (segs[0],) in modules:
        base, rest = (), segs
    else:
        return None
    best = base
    for k in range(1, len(rest) + 1):
        cand = base + tuple(rest[:k])
        if cand in modules:
            best = cand
    return best


texts = {mod: strip_tests(open(p, encoding="utf-8").read(), mod) for mod, p in files.items()}
for t in list(test_files):
    for mod in list(files):
        if mod[: len(t)] == t:
            del files[mod]
            modules.discard(mod)
edges = {m: set() for m in modules}
for mod in files:
    text = texts[mod]
    refs = []
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        refs += expand_use(m.group(1))
    refs += re.findall(r"\b(?:crate|super)(?:::[A-Za-z_][A-Za-z0-9_]*)+", text)
    for r in refs:
        target = resolve(mod, r)
        if target is None or target == mod:
            continue
        # A file may always reach its own parents' declarations (`mod` lines): not an import.
        if target == mod[: len(target)]:
            continue
        edges[mod].add(target)


def sccs(graph):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
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
            out.append(comp)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [c for c in out if len(c) > 1]


def name(m):
    return "::".join(m) or "crate"


def show(title, graph):
    comps = sccs(graph)
    for c in comps:
        members = sorted(c)
        print(f"{title} cycle: " + ", ".join(name(m) for m in members))
        for a in members:
            for b in sorted(graph[a]):
                if b in c:
                    print(f"    {name(a)} -> {name(b)}")
    return len(comps)


top = {}
for a, bs in edges.items():
    if not a:
        continue
    for b in bs:
        if b and b[0] != a[0]:
            top.setdefault((a[0],), set()).add((b[0],))
n = show("file", edges) + show("module", top)
if layers and not n:
    # Lowest first: a module is listed after everything it imports.
    done, order = set(), []
    while len(done) < len(top) + len(set().union(*top.values()) - set(top)):
        for m in sorted(set(top) | set().union(*top.values())):
            if m not in done and top.get(m, set()) <= done:
                done.add(m)
                order.append(m)
    for m in order:
        print(f"{name(m)}: {', '.join(name(x) for x in sorted(top.get(m, ())))}")
print(f"{len(files)} files, {sum(map(len, edges.values()))} imports, {n} cycles")
sys.exit(1 if n else 0)
