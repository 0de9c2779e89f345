#!/usr/bin/env python3
"""Classify the differences between two recordings of tests/recorded.rs
(old server, new server), answer by answer. Usage: classify.py OLD NEW [--show CLASS N]"""
import re, sys, collections, json

def parse(path):
    edits = collections.OrderedDict()
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        n, rest = line.split(" ", 1)
        e = edits.setdefault(n, {"diag": []})
        if rest.startswith("edit "):
            e["edit"] = rest
        elif rest.startswith("diagnostics: "):
            e["count"] = rest
        elif rest.startswith("  "):
            e["diag"].append(rest.strip())
        elif rest.startswith("at "):
            e["at"] = json.loads(rest.split(": ", 1)[1])
        elif rest.startswith("elsewhere: "):
            e["elsewhere"] = rest
        else:
            req, answer = re.match(r"(\w+) \d+:\d+: (.*)", rest).groups()
            e[req] = answer
            e["at_" + req] = rest.split(":", 2)[0] + ":" + rest.split(":", 2)[1]
    return edits

def labels(answer):
    if answer in ("none", "0"):
        return 0, []
    count, rest = answer.split(": ", 1)
    items = [i for i in rest.split(", ") if i != "…"]
    return int(count), [re.match(r"(.*) \((.*)\)$", i).groups() for i in items]

def place(marked):
    before, after = marked.split("‸", 1)
    if before.strip() in ("", "-"):
        return "in the indentation" if after.strip() else "on an empty line"
    if "#" in before:
        return "in a comment"
    if ":" not in before:
        return "on a key" if ":" in after else "in a plain line"
    return "in a value"

def yaml_error_above(e):
    """Whether the file has a YAML syntax error on a line above the question's."""
    line = int(e["at_completion"].split()[1].split(":")[0])
    for d in e["diag"]:
        at, _, code, _ = d.split(" ", 3)
        if code == "invalid-yaml" and int(at.split(":")[0]) < line:
            return True
    return False

def state(e):
    if e["count"] == "diagnostics: 0":
        return "file without diagnostics"
    return "below a YAML error" if yaml_error_above(e) else "file with diagnostics, none a YAML error above"

def completion_class(old, new, marked, e):
    return completion_kind(old, new) + " — " + place(marked) + "; " + state(e)

def completion_kind(old, new):
    (oc, ol), (nc, nl) = labels(old), labels(new)
    if oc == 0:
        return "completion: now offered (none before)"
    if nc == 0:
        return "completion: no longer offered"
    if [l for l, _ in ol] == [l for l, _ in nl] and oc == nc:
        return "completion: same labels, other kinds"
    if oc == nc and sorted(l for l, _ in ol) == sorted(l for l, _ in nl):
        return "completion: same labels, other order"
    return "completion: other list (%s)" % ("same count" if oc == nc else "count %s" % ("up" if nc > oc else "down"))

def diag_class(o, n):
    od, nd = o["diag"], n["diag"]
    if len(od) != len(nd):
        return "diagnostics: other number"
    split = lambda d: (d.split(" ", 1)[0], d.split(" ", 3)[2], d.split(" ", 3)[3])
    classes = set()
    for a, b in zip(od, nd):
        if a == b:
            continue
        (ra, ca, ma), (rb, cb, mb) = split(a), split(b)
        if ca != cb:
            classes.add("code")
        if ra != rb:
            classes.add("range")
        if ma != mb:
            # Same message bar its help line?
            if ma.split("\\nhelp")[0] == mb.split("\\nhelp")[0]:
                classes.add("help")
            else:
                classes.add("message")
    return "diagnostics: other " + "+".join(sorted(classes))

def main():
    old, new = parse(sys.argv[1]), parse(sys.argv[2])
    assert list(old) == list(new), "not the same edits"
    classes = collections.defaultdict(list)
    for n in old:
        o, e = old[n], new[n]
        assert o["edit"] == e["edit"], (n, o["edit"], e["edit"])
        if o["count"] != e["count"] or o["diag"] != e["diag"]:
            classes[diag_class(o, e)].append(n)
        if o["elsewhere"] != e["elsewhere"]:
            classes["elsewhere: other counts"].append(n)
        if o["completion"] != e["completion"]:
            classes[completion_class(o["completion"], e["completion"], o["at"], e)].append(n)
        for req in ("hover", "definition"):
            if o[req] != e[req]:
                kind = "found now" if o[req] == "none" else "lost" if e[req] == "none" else "other"
                classes["%s: %s" % (req, kind)].append(n)
    edits_differing = {n for ns in classes.values() for n in ns}
    print("%d of %d edits differ in some answer" % (len(edits_differing), len(old)))
    for c in sorted(classes):
        print("%5d  %s" % (len(classes[c]), c))
    if "--show" in sys.argv:
        i = sys.argv.index("--show")
        want, count = sys.argv[i + 1], int(sys.argv[i + 2])
        for c in sorted(classes):
            if want not in c:
                continue
            for n in classes[c][:count]:
                print("\n== %s  edit %s: %s\n   at %s (%s)" % (c, n, old[n]["edit"], json.dumps(old[n]["at"], ensure_ascii=False), old[n]["count"]))
                for key in ("count", "elsewhere", "completion", "hover", "definition"):
                    if old[n][key] != new[n][key]:
                        print("   %s at %s\n   - %s\n   + %s" % (key, old[n].get("at_" + key, ""), old[n][key][:600], new[n][key][:600]))
                if old[n]["diag"] != new[n]["diag"]:
                    for d in old[n]["diag"]:
                        if d not in new[n]["diag"]: print("   - " + d[:400])
                    for d in new[n]["diag"]:
                        if d not in old[n]["diag"]: print("   + " + d[:400])

main()
