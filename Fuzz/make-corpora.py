#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora: small slices of samples/ and of ../shared/realdata.

Usage: make-corpora.py REPO REALDATA DEST

One folder per harness under DEST (csv, json, labels, evemu, getevent, force-values, tablet-csv,
pointer-events, libinput-record, sweep, stream, capture-request), each seed at most MAX_BYTES. Nothing is copied into the repository: run.sh
writes DEST under Fuzz/.build. A missing REALDATA folder leaves the importers with the hand-written
seeds below only (and says so).
"""

import csv
import io
import json
import pathlib
import sys

MAX_BYTES = 4096


def clip(text, limit=MAX_BYTES):
    """The longest prefix of whole lines of `text` within `limit` bytes."""
    data = text.encode()
    if len(data) <= limit:
        return data
    cut = data.rfind(b"\n", 0, limit)
    return data[: cut + 1 if cut > 0 else limit]


def csv_slices(repo):
    """Header plus 30 rows from the start and from the middle of every sample file."""
    for path in sorted((repo / "samples").glob("*.csv")):
        lines = path.read_text().splitlines(keepends=True)
        header, rows = lines[0], lines[1:]
        middle = len(rows) // 2
        yield path.stem + "-head", header + "".join(rows[:30])
        yield path.stem + "-middle", header + "".join(rows[middle : middle + 30])


def traces_of(text):
    """The traces of a CSV slice as the JSON format's column-wise objects."""
    traces = {}
    for row in csv.DictReader(io.StringIO(text)):
        trace = traces.setdefault(row["trace"], {"id": row["trace"], "t": [], "force": [], "phase": []})
        for key in ("intent", "user", "session", "device"):
            if row.get(key):
                trace[key] = row[key]
        if row.get("max_force"):
            trace["max_force"] = float(row["max_force"])
        if row.get("press_at"):
            trace["press_at"] = [float(v) for v in row["press_at"].split(";") if v]
        trace["t"].append(float(row["t"]))
        trace["force"].append(float(row["force"]))
        trace["phase"].append(row["phase"])
    for trace in traces.values():
        if trace["phase"][0] != "began":  # a slice that starts inside a trace: no phases or press_at
            del trace["phase"]
            trace.pop("press_at", None)
    return list(traces.values())


def labels_of(text):
    """A labels file for the traces of a CSV slice, and one for the fuzz harness's own traces."""
    rows = ["trace,intent,press_at,user,session,device"]
    seen = set()
    for row in csv.DictReader(io.StringIO(text)):
        if row["trace"] not in seen:
            seen.add(row["trace"])
            fields = [row["trace"], row.get("intent", ""), row.get("press_at", ""), row.get("user", ""),
                      row.get("session", ""), row.get("device", "")]
            rows.append(",".join(fields))
    return "\n".join(rows) + "\n"


def pointer_events():
    """A session: a pen pressing harder then lifting, a finger cancelled, a mouse ignored."""
    def event(kind, pointer, ms, pressure, x, y, device):
        return {"type": "pointer" + kind, "pointerId": pointer, "timeStamp": ms, "pressure": pressure,
                "clientX": x, "clientY": y, "pointerType": device}
    events = [event("down", 1, 1000.5, 0.25, 10, 20, "pen"), event("down", 2, 1002, 0.5, 50, 60, "touch")]
    events += [event("move", 1, 1000.5 + 4 * k, 0.25 + 0.2 * k, 10 + k, 20, "pen") for k in range(1, 4)]
    events += [event("up", 1, 1016.5, 0, 13, 20, "pen"), event("move", 3, 1017, 0, 1, 1, "mouse"),
               event("cancel", 2, 1020, 0, 50, 60, "touch")]
    return json.dumps(events, indent=1)

HARNESS_LABELS = "trace,touch,intent,press_at,user\np1,0,press,0.05,u1\np2,0,tap,,u2\np2,1,pop,0.02;0.08,u2\n"


def capture_requests():
    """What the capture page sends (the harness's token `tok`, secret `0123abcd`, port 8080),
    pipelined, plus refusals: an over-long head, a body over the limit, chunked, foreign Host."""
    host = b"Host: 127.0.0.1:8080\r\n"
    secret = b"X-Capture-Secret: 0123abcd\r\n"
    body = b'{"prompt":0,"intent":"tap"}'
    post = (b"POST /contact?token=tok HTTP/1.1\r\n" + host + secret + b"Origin: http://127.0.0.1:8080\r\n"
            + b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    return {
        "page": b"GET /?token=tok HTTP/1.1\r\n" + host + b"\r\n",
        "pipelined": b"GET /state?token=tok HTTP/1.1\r\n" + host + b"\r\n" + post
                     + b"POST /redo?token=tok HTTP/1.1\r\n" + host + secret + b"Connection: close\r\n\r\n",
        "long-head": b"GET / HTTP/1.1\r\nX-Long: " + b"a" * 300,
        "over-limit": b"POST /contact?token=tok HTTP/1.1\r\n" + host + secret + b"Content-Length: 65\r\n\r\n" + b"x" * 65,
        "chunked": b"POST /contact HTTP/1.1\r\n" + host + b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "foreign": b"GET / HTTP/1.1\r\nHost: evil.example:8080\r\nOrigin: http://evil.example\r\n\r\n",
    }


def evemu_slice(text, events=60):
    """The recording's header lines (comments dropped) and its first `events` events."""
    header = [line for line in text.splitlines() if line[:2] in ("N:", "I:", "P:", "B:", "A:", "L:", "S:")]
    body = [line.split("#")[0].rstrip() for line in text.splitlines() if line.startswith("E:")][:events]
    return "\n".join(header + body) + "\n"


def libinput_record(evemu):
    """An evemu slice as `libinput record` YAML: decimal codes, one evdev frame per SYN_REPORT."""
    name, absinfo, frames = "seed", [], [[]]
    for line in evemu.splitlines():
        words = line.split()
        if line.startswith("N:"):
            name = line[2:].strip()
        elif line.startswith("A:") and len(words) >= 6:
            values = (words[2:7] + ["0"])[:5]
            absinfo.append(f"      {int(words[1], 16)}: [{', '.join(values)}]")
        elif line.startswith("E:") and len(words) == 5:
            sec, _, usec = words[1].partition(".")
            kind, code = int(words[2], 16), int(words[3], 16)
            frames[-1].append(f"    - [{sec}, {int((usec + '000000')[:6])}, {kind}, {code}, {words[4]}]")
            if kind == 0 and code == 0:
                frames.append([])
    lines = ["version: 1", "ndevices: 1", "devices:", "- node: /dev/input/event3", "  evdev:",
             f'    name: "{name}"', "    absinfo:"] + absinfo + ["  events:"]
    for frame in frames:
        if frame:
            lines += ["  - evdev:"] + frame
    return "\n".join(lines) + "\n"


def main():
    repo, realdata, dest = (pathlib.Path(arg) for arg in sys.argv[1:4])
    seeds = {name: {} for name in
             ("csv", "json", "labels", "evemu", "getevent", "force-values", "tablet-csv", "pointer-events",
              "libinput-record", "sweep", "stream", "capture-request")}
    for name, text in csv_slices(repo):
        seeds["csv"][name] = clip(text)
        seeds["sweep"][name] = clip(text)
        traces = traces_of(clip(text).decode())
        seeds["json"][name] = clip(json.dumps({"format": "touchtrace", "version": 1, "traces": traces}))
        seeds["json"][name + "-lines"] = clip("".join(json.dumps(t) + "\n" for t in traces))
        seeds["stream"][name] = clip(text)
        seeds["stream"][name + "-lines"] = seeds["json"][name + "-lines"]
        seeds["stream"][name + "-document"] = seeds["json"][name]
        seeds["labels"][name] = clip(labels_of(clip(text).decode()))
    seeds["labels"]["harness"] = HARNESS_LABELS.encode()
    seeds["pointer-events"]["session"] = pointer_events().encode()
    seeds["force-values"]["ramp"] = b"[0, 0.5, 1.25, 0.75, 0, 2, 0]"
    for name, data in capture_requests().items():
        seeds["capture-request"][name] = data
    if realdata.is_dir():
        for path in sorted(realdata.glob("evemu-devices/*/*.events"))[::4]:
            seeds["evemu"][path.stem.replace(" ", "_")] = clip(evemu_slice(path.read_text(errors="replace")))
        for path in sorted(realdata.glob("evemu-devices/*/*.events"))[2::4]:
            yaml = libinput_record(evemu_slice(path.read_text(errors="replace"), events=40))
            seeds["libinput-record"][path.stem.replace(" ", "_")] = clip(yaml)
        for path in sorted(realdata.glob("android-getevent/*/*.txt"))[::3]:
            lines = path.read_text(errors="replace").splitlines(keepends=True)
            seeds["getevent"][path.parent.name + "-" + path.stem] = clip("".join(lines[:80]))
        for path in sorted(realdata.glob("algal-3dtouch/data-60secondsVariedForce/*.json")):
            values = json.loads(path.read_text())
            seeds["force-values"][path.stem[:8]] = clip(json.dumps(values[:120]))
        for path in sorted(realdata.glob("uci-spiral-tablet/hw_dataset/*/*.txt"))[:3]:
            lines = path.read_text(errors="replace").splitlines(keepends=True)
            seeds["tablet-csv"][path.stem] = clip("".join(lines[:60]))
    else:
        print(f"make-corpora: {realdata} is absent; importer seeds are the hand-written ones only", file=sys.stderr)
        seeds["evemu"]["minimal"] = b"N: pad\nA: 3a 0 255 0 0 0\nE: 0.000000 0003 003a 10\nE: 0.000000 0000 0000 0\n"
        seeds["libinput-record"]["minimal"] = libinput_record(seeds["evemu"]["minimal"].decode()).encode()
        seeds["getevent"]["minimal"] = b"[    1.000000] EV_ABS       ABS_MT_PRESSURE      00000025\n"
        seeds["tablet-csv"]["minimal"] = b"200;204;0;73;910;1732647300;0\n"
    for harness, files in seeds.items():
        folder = dest / harness
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            (folder / name).write_bytes(data)
        print(f"{harness}: {len(files)} seeds, {sum(len(d) for d in files.values())} bytes")


if __name__ == "__main__":
    main()
