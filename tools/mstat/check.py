# SPDX-License-Identifier: GPL-2.0
"""Checks for test.sh: compare what mstat prints with the input file,
parsed here independently of the tool.

    check.py show MSTAT_FILE SHOW_OUTPUT
    check.py json MSTAT_FILE JSON_OUTPUT
    check.py prom MSTAT_FILE PROM_OUTPUT
    check.py top MSTAT_FILE_A MSTAT_FILE_B TOP_OUTPUT
    check.py pprof SITES_FILE PROFILE_PB_GZ PROTOC_DECODED_TEXT
    check.py bigsites SITES_FILE N OUT_FILE   (N synthetic rows, for gzip blocks)

Exits 0, or 1 with one line saying what differs.
"""
import gzip
import json
import math
import re
import sys

SOURCES = ["kmalloc", "cache", "page", "api"]
SLAB_SOURCES = ["kmalloc", "cache", "api"]
CTX = ["task", "softirq", "hardirq"]
CLASS_COLS = ["allocs", "frees", "live_objects", "bytes_requested",
              "bytes_allocated", "bytes_freed", "live_bytes", "frag_bytes",
              "frag_live_bytes_est"]
ORDER_COLS = ["allocs", "frees", "failures", "live_pages"]
UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30,
         "TiB": 1 << 40, "PiB": 1 << 50}


class Fail(Exception):
    pass


def need(cond, msg):
    if not cond:
        raise Fail(msg)


def parse_mstat(path):
    """/proc/mstat: counters dict, class rows, order rows."""
    with open(path) as f:
        lines = f.read().splitlines()
    need(lines[0].startswith("mstat - version: "), "bad first line")
    m = {"version": lines[0].split(": ")[1], "ctr": {}, "cls": [], "ord": []}
    for ln in lines[1:]:
        f = ln.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] == "class":
            row = dict(zip(CLASS_COLS, map(int, f[2:])))
            row["class"] = f[1]
            m["cls"].append(row)
        elif f[0] == "order":
            row = dict(zip(ORDER_COLS, map(int, f[2:])))
            row["order"] = int(f[1])
            m["ord"].append(row)
        else:
            m["ctr"][f[0]] = int(f[1])
    return m


def count(s):
    return int(s.replace(",", ""))


def nbytes(s):
    num, unit = s.rsplit(" ", 1)
    return float(num) * UNITS[unit]


def near_bytes(printed, exact, what):
    """A human-readable size is exact to half its last digit."""
    unit = printed.rsplit(" ", 1)[1]
    tol = 0.5 if unit == "B" else 0.051 * UNITS[unit]
    need(abs(nbytes(printed) - exact) <= tol,
         "%s: printed %s, file says %d" % (what, printed, exact))


BYTES = r"(-?[\d.]+ (?:B|KiB|MiB|GiB|TiB|PiB))"
NUM = r"(-?[\d,]+)"


def check_show(mfile, out):
    m = parse_mstat(mfile)
    c = m["ctr"]
    text = open(out).read()
    hdr = re.search(r"^mstat (\S+)  generation ([\d,]+)", text, re.M)
    need(hdr and hdr.group(1) == m["version"] and
         count(hdr.group(2)) == c["generation"], "header")
    src_re = re.compile(r"^(kmalloc|cache|page|api) +(\d) +%s +%s +%s +%s +%s +%s +%s$"
                        % (NUM, NUM, NUM, NUM, BYTES, BYTES, BYTES), re.M)
    rows = src_re.findall(text)
    need(len(rows) == 4, "want 4 source rows, got %d" % len(rows))
    for r in rows:
        s = r[0]
        for val, key in zip(r[1:6], ["enabled", "allocs", "frees", "failures",
                                      "live_objects"]):
            need(count(val) == c["%s_%s" % (s, key)], "%s_%s" % (s, key))
        near_bytes(r[6], c[s + "_live_bytes"], s + "_live_bytes")
        near_bytes(r[7], c[s + "_bytes_allocated"], s + "_bytes_allocated")
        near_bytes(r[8], c[s + "_bytes_requested"], s + "_bytes_requested")
    for ctx in CTX:
        r = re.search(r"^%s +%s +%s$" % (ctx, NUM, NUM), text, re.M)
        need(r and count(r.group(1)) == c["ctx_%s_allocs" % ctx] and
             count(r.group(2)) == c["ctx_%s_frees" % ctx], "context " + ctx)
    cls_re = re.compile(r"^(\d+ B|\d+ KiB|large) +%s +%s +%s +%s +%s +%s +%s +%s$"
                        % (NUM, NUM, NUM, BYTES, BYTES, BYTES, BYTES, BYTES), re.M)
    crow = cls_re.findall(text)
    need(len(crow) == len(m["cls"]), "class rows: %d, file %d" % (len(crow), len(m["cls"])))
    for r, want in zip(crow, m["cls"]):
        label = "large" if r[0] == "large" else str(
            int(r[0].split()[0]) * (1024 if r[0].endswith("KiB") else 1))
        need(label == want["class"], "class %s vs %s" % (label, want["class"]))
        for val, key in zip(r[1:4], ["allocs", "frees", "live_objects"]):
            need(count(val) == want[key], "class %s %s" % (label, key))
        for val, key in zip(r[4:9], ["live_bytes", "bytes_requested",
                                     "bytes_allocated", "frag_bytes",
                                     "frag_live_bytes_est"]):
            near_bytes(val, want[key], "class %s %s" % (label, key))
    orow = re.findall(r"^(\d+) +%s +%s +%s +%s$" % (NUM, NUM, NUM, NUM), text, re.M)
    need(len(orow) == len(m["ord"]), "order rows")
    for r, want in zip(orow, m["ord"]):
        need([count(x) for x in r[1:]] == [want[k] for k in ORDER_COLS],
             "order %s" % r[0])


def check_invariants(j):
    """What mstat_internal.h promises, checked on the JSON."""
    c, src = j["counters"], j["sources"]
    for s in SOURCES:
        x = src[s]
        need(x["live_objects"] == x["allocs"] - x["frees"], s + " live_objects")
        need(x["live_bytes"] == x["bytes_allocated"] - x["bytes_freed"],
             s + " live_bytes")
        for k, v in x.items():
            need(c["%s_%s" % (s, k)] == v, "sources.%s.%s vs counters" % (s, k))
    for k in ["allocs", "frees", "bytes_requested", "bytes_allocated",
              "bytes_freed", "live_objects", "live_bytes"]:
        need(c["slab_" + k] == sum(src[s][k] for s in SLAB_SOURCES), "slab_" + k)
        if k in ("live_objects", "live_bytes"):
            continue
        need(c["slab_" + k] == sum(r[k] for r in j["classes"]),
             "sum over classes of " + k)
    need(c["slab_frag_bytes"] == c["slab_bytes_allocated"] - c["slab_bytes_requested"],
         "slab_frag_bytes")
    for r in j["classes"]:
        need(r["live_objects"] == r["allocs"] - r["frees"], "class live_objects")
        need(r["live_bytes"] == r["bytes_allocated"] - r["bytes_freed"],
             "class live_bytes")
        need(r["frag_bytes"] == r["bytes_allocated"] - r["bytes_requested"],
             "class frag_bytes")
    pages = 0
    for r in j["orders"]:
        need(r["live_pages"] == (r["allocs"] - r["frees"]) << r["order"],
             "order %d live_pages" % r["order"])
        pages += r["live_pages"]
    need(pages == c["page_live_pages"], "page_live_pages")
    need(sum(r["allocs"] for r in j["orders"]) == src["page"]["allocs"], "order allocs")
    need(sum(r["frees"] for r in j["orders"]) == src["page"]["frees"], "order frees")
    allocs = sum(src[s]["allocs"] for s in SOURCES)
    frees = sum(src[s]["frees"] for s in SOURCES)
    need(sum(c["ctx_%s_allocs" % x] for x in CTX) == allocs, "ctx allocs")
    need(sum(c["ctx_%s_frees" % x] for x in CTX) == frees, "ctx frees")
    need(c["gfp_sleep_allocs"] + c["gfp_atomic_allocs"] == allocs, "gfp allocs")
    if pages:
        need(c["page_live_bytes"] % pages == 0, "page bytes / pages")


def check_json(mfile, out):
    m = parse_mstat(mfile)
    j = json.load(open(out))
    need(j["version"] == m["version"], "version")
    need(j["generation"] == m["ctr"]["generation"], "generation")
    need(j["counters"] == m["ctr"], "counters differ from the file")
    need(len(j["classes"]) == len(m["cls"]) and len(j["orders"]) == len(m["ord"]),
         "table lengths")
    for a, b in zip(j["classes"], m["cls"]):
        need(a["class"] == b["class"] and all(a[k] == b[k] for k in CLASS_COLS),
             "class " + b["class"])
        need(a["size"] == (None if b["class"] == "large" else int(b["class"])),
             "class size")
    for a, b in zip(j["orders"], m["ord"]):
        need(all(a[k] == b[k] for k in ORDER_COLS + ["order"]), "order")
    check_invariants(j)


def parse_prom(out):
    samples, types, helps = {}, {}, set()
    for ln in open(out).read().splitlines():
        if ln.startswith("# HELP "):
            helps.add(ln.split()[2])
        elif ln.startswith("# TYPE "):
            types[ln.split()[2]] = ln.split()[3]
        else:
            name_labels, val = ln.rsplit(" ", 1)
            name = name_labels.split("{")[0]
            need(name in types and name in helps, name + " before its HELP/TYPE")
            samples[name_labels] = float(val)
    return samples, types


def check_prom(mfile, out):
    m = parse_mstat(mfile)
    c = m["ctr"]
    samples, types = parse_prom(out)
    for name, t in types.items():
        need((t == "counter") == name.endswith("_total"), name + " suffix")
    pairs = {"allocs_total": "allocs", "frees_total": "frees",
             "failures_total": "failures",
             "requested_bytes_total": "bytes_requested",
             "allocated_bytes_total": "bytes_allocated",
             "freed_bytes_total": "bytes_freed", "live_objects": "live_objects",
             "live_bytes": "live_bytes", "source_enabled": "enabled"}
    for s in SOURCES:
        for metric, field in pairs.items():
            key = 'mstat_%s{source="%s"}' % (metric, s)
            need(samples.get(key) == c["%s_%s" % (s, field)], key)
    cpairs = {"allocs_total": "allocs", "frees_total": "frees",
              "requested_bytes_total": "bytes_requested",
              "allocated_bytes_total": "bytes_allocated",
              "freed_bytes_total": "bytes_freed", "frag_bytes_total": "frag_bytes",
              "live_objects": "live_objects", "live_bytes": "live_bytes",
              "frag_live_bytes": "frag_live_bytes_est"}
    for r in m["cls"]:
        for metric, field in cpairs.items():
            key = 'mstat_class_%s{class="%s"}' % (metric, r["class"])
            need(samples.get(key) == r[field], key)
    for r in m["ord"]:
        for metric, field in [("allocs_total", "allocs"), ("frees_total", "frees"),
                              ("failures_total", "failures"),
                              ("live_pages", "live_pages")]:
            key = 'mstat_page_order_%s{order="%d"}' % (metric, r["order"])
            need(samples.get(key) == r[field], key)
    for x in CTX:
        need(samples['mstat_context_allocs_total{context="%s"}' % x] ==
             c["ctx_%s_allocs" % x], "context " + x)
        need(samples['mstat_context_frees_total{context="%s"}' % x] ==
             c["ctx_%s_frees" % x], "context " + x)
    need(samples["mstat_generation"] == c["generation"], "mstat_generation")
    need(types["mstat_generation"] == "gauge", "mstat_generation is a gauge")
    need(types["mstat_live_objects"] == "gauge", "live_objects is a gauge")
    need(samples["mstat_page_live_pages"] == c["page_live_pages"], "page_live_pages")
    need(samples['mstat_gfp_allocs_total{gfp="sleep"}'] == c["gfp_sleep_allocs"], "gfp")
    need(abs(samples["mstat_snapshot_wait_seconds"] - c["snapshot_wait_ns"] / 1e9) < 1e-9,
         "wait seconds")


def top_frames(out):
    frames = re.split(r"(?m)^(?=mstat top - )", open(out).read())
    return [f for f in frames if f.strip()]


def top_section(frame, title):
    """Rows of the table whose header starts with @title, as {name: cols}."""
    rows, on = [], False
    for ln in frame.splitlines():
        if ln.startswith(title + " "):
            on = True
            continue
        if on and not ln.strip():
            break
        if on:
            rows.append(re.split(r" {2,}", ln.strip()))
    return rows


def rate_ok(printed, delta, dt, what):
    want = delta / dt
    got = float(printed.replace(",", ""))
    need(abs(got - want) <= 0.02 * abs(want) + 1,
         "%s: printed %s/s, delta %d over %.2f s is %.1f/s" % (what, printed, delta, dt, want))


def check_top(fa, fb, out):
    a, b = parse_mstat(fa), parse_mstat(fb)
    frames = top_frames(out)
    need(len(frames) == 2, "want 2 frames, got %d" % len(frames))
    hdr = re.match(r"mstat top - \S*  generation ([\d,]+) \(\+(\d+)\)  interval ([\d.]+) s",
                   frames[0])
    need(hdr, "frame header")
    need(count(hdr.group(1)) == b["ctr"]["generation"], "generation in header")
    need(int(hdr.group(2)) == b["ctr"]["generation"] - a["ctr"]["generation"], "+gen")
    dt = float(hdr.group(3))
    src = top_section(frames[0], "source")
    need(len(src) == 4, "source rows")
    for r in src:
        s = r[0]
        rate_ok(r[1], b["ctr"][s + "_allocs"] - a["ctr"][s + "_allocs"], dt, s + " allocs/s")
        rate_ok(r[2], b["ctr"][s + "_frees"] - a["ctr"][s + "_frees"], dt, s + " frees/s")
        need(count(r[4]) == b["ctr"][s + "_live_objects"], s + " live objects")
    need([float(r[1].replace(",", "")) for r in src] ==
         sorted((float(r[1].replace(",", "")) for r in src), reverse=True),
         "sources not sorted by allocs/s")
    cls = top_section(frames[0], "class")
    need(len(cls) == len(b["cls"]), "class rows")
    rates = [float(r[1].replace(",", "")) for r in cls]
    need(rates == sorted(rates, reverse=True), "classes not sorted by allocs/s")
    byname = {r["class"]: (ra, r) for ra, r in zip(a["cls"], b["cls"])}
    for r in cls:
        name = "large" if r[0] == "large" else str(
            int(r[0].split()[0]) * (1024 if r[0].endswith("KiB") else 1))
        ra, rb = byname[name]
        rate_ok(r[1], rb["allocs"] - ra["allocs"], dt, "class %s allocs/s" % name)
    for r in top_section(frames[1], "source") + top_section(frames[1], "class"):
        need(r[1] == "0.0" and r[2] == "0.0", "frame 2 (same file twice) has rates")


def parse_textproto(text):
    """protoc --decode output into nested dicts of lists."""
    tok = re.findall(r'"(?:[^"\\]|\\.)*"|[{}]|[A-Za-z_][A-Za-z0-9_]*:?|-?\d+', text)
    pos = 0

    def block():
        nonlocal pos
        d = {}
        while pos < len(tok) and tok[pos] != "}":
            key = tok[pos]
            pos += 1
            if key.endswith(":"):
                v = tok[pos]
                pos += 1
                if v.startswith('"'):
                    v = bytes(v[1:-1], "latin1").decode("unicode_escape")
                elif v in ("true", "false"):
                    v = v == "true"
                else:
                    v = int(v)
                d.setdefault(key[:-1], []).append(v)
            else:
                need(tok[pos] == "{", "textproto: { after " + key)
                pos += 1
                d.setdefault(key, []).append(block())
                pos += 1
        return d

    return block()


def parse_sites(path):
    lines = open(path).read().splitlines()
    hdr = dict(zip(lines[1].split()[1::2], map(int, lines[1].split()[2::2])))
    rows = []
    for ln in lines[3:]:
        f = ln.split(None, 8)
        rows.append(dict(zip(["est_bytes", "est_calls", "sampled_bytes",
                              "sampled_calls", "allocs", "alloc_bytes",
                              "frees", "free_bytes"], map(int, f[:8])),
                         site=f[8]))
    return hdr, rows


def check_pprof(sfile, pbgz, decoded):
    hdr, rows = parse_sites(sfile)
    raw = open(pbgz, "rb").read()
    need(raw[:3] == b"\x1f\x8b\x08" and raw[10] & 6 == 0, "gzip of stored blocks")
    gzip.decompress(raw)            # checks CRC32 and ISIZE
    p = parse_textproto(open(decoded).read())
    st = p["string_table"]
    need(st[0] == "", "string_table[0] is not empty")
    types = [(st[t["type"][0]], st[t["unit"][0]]) for t in p["sample_type"]]
    need(types == [("alloc_objects", "count"), ("alloc_space", "bytes"),
                   ("inuse_objects", "count"), ("inuse_space", "bytes")],
         "sample types %s" % types)
    need(st[p["default_sample_type"][0]] == "inuse_space", "default sample type")
    need(p.get("period", [0])[0] == hdr["sample_rate"], "period")
    samples = p.get("sample", [])
    need(len(samples) == len(rows) == len(p.get("location", [])) ==
         len(p.get("function", [])), "one sample, location, function per site")
    locs = {l["id"][0]: l for l in p["location"]}
    funcs = {f["id"][0]: f for f in p["function"]}
    maps = {m["id"][0] for m in p.get("mapping", [])}
    rate = hdr["sample_rate"]
    for s, r in zip(samples, rows):
        v = s["value"]
        need(v[2] == r["est_calls"] and v[3] == r["est_bytes"], "inuse of " + r["site"])
        ratio = 1.0
        if rate > 1 and r["allocs"]:
            ratio = 1 / -math.expm1(-(r["alloc_bytes"] // r["allocs"]) / rate)
        need(abs(v[0] - r["allocs"] * ratio) <= 1 and
             abs(v[1] - r["alloc_bytes"] * ratio) <= 1, "alloc values of " + r["site"])
        if r["frees"] == 0 and r["est_calls"] > 100:
            # agrees with the kernel's own fixed-point scaling
            need(abs(v[0] - r["est_calls"]) <= 0.01 * r["est_calls"], "scale")
        loc = locs[s["location_id"][0]]
        need(loc.get("mapping_id", [0])[0] in maps, "mapping of " + r["site"])
        fn = funcs[loc["line"][0]["function_id"][0]]
        name = r["site"].split("+")[0].split(" ")[0]
        mod = re.search(r" \[(\S+)\]$", r["site"])
        if mod:
            name += " [%s]" % mod.group(1)
        need(st[fn["name"][0]] == name, "name %s vs %s" % (st[fn["name"][0]], name))
        need(st[fn["system_name"][0]] == r["site"], "system_name")


def bigsites(sfile, n, out):
    """A sites file with @n rows, names made up: a profile over 64 KiB."""
    lines = open(sfile).read().splitlines()
    hdr = re.sub(r" sites \d+ ", " sites %d " % n, lines[1])
    with open(out, "w") as f:
        f.write("\n".join([lines[0], hdr, lines[2]]) + "\n")
        for i in range(n):
            mod = " [mod%d]" % (i % 7) if i % 3 == 0 else ""
            f.write("%d %d %d %d %d %d 0 0 synthetic_function_%d+0x%x/0x200%s\n"
                    % (n - i, 1, 64, 1, 1, 64, i, i % 512, mod))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    try:
        if cmd == "show":
            check_show(*args)
        elif cmd == "json":
            check_json(*args)
        elif cmd == "prom":
            check_prom(*args)
        elif cmd == "top":
            check_top(*args)
        elif cmd == "pprof":
            check_pprof(*args)
        elif cmd == "bigsites":
            bigsites(args[0], int(args[1]), args[2])
        else:
            raise Fail("unknown check " + cmd)
    except (Fail, KeyError, ValueError, IndexError) as e:
        print("check.py %s: %s: %s" % (cmd, type(e).__name__, e), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
