#!/usr/bin/env python3
"""Intent labels for the evemu recordings of ../shared/realdata, from the gesture their file names
give (`touchtrace import --from evemu … --label-from-path '{kind}/{model}.{gesture}.events'`).

Usage: Scripts/evemu-intents.py evemu.csv > evemu-intents.csv

A gesture naming a press or a click (three_finger_press, three-finger-click, button-rpress, …) is
a press; a tap is a tap; a scroll, a drag or a move is a drag. Recordings without a gesture in
their name, and the two bug reproducers, get no row (no intent: `sweep` and `compare` skip them).
Writes a labels file (trace, touch, intent) for `--labels`.
"""
import csv
import sys


def intent(gesture):
    g = gesture.lower()
    if "press" in g or "click" in g:
        return "press"
    if "tap" in g:
        return "tap"
    if "scroll" in g or "drag" in g or "move" in g:
        return "drag"
    return None


def main():
    seen = {}
    with open(sys.argv[1], newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            key = (row["trace"], row["touch"])
            if key in seen:
                continue
            seen[key] = intent(row.get("label:gesture") or "")
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["trace", "touch", "intent"])
    for (trace, touch), label in seen.items():
        if label:
            out.writerow([trace, touch, label])


if __name__ == "__main__":
    main()
