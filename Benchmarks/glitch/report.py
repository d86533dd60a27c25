#!/usr/bin/env python3
"""Writes Benchmarks/results/glitch.md from the runs Benchmarks/glitch/run recorded.

    report.py RESULTS.jsonl OUT.md ROOT SECONDS LOAD
"""
import datetime
import json
import os
import subprocess
import sys

results_path, out_path, root, seconds, load = sys.argv[1:6]
rows = [json.loads(line) for line in open(results_path) if line.strip()]
players = []
for r in rows:
    if r["player"] not in players:
        players.append(r["player"])

LABELS = {
    "file": "aqplay → WAVE-file output",
    "pulse": "aqplay → PulseAudio",
    "alsa-pulse": "aqplay → ALSA `pulse` PCM → PulseAudio",
    "paplay": "paplay → PulseAudio",
    "pipewire": "aqplay → PipeWire (native)",
    "pw-cat": "pw-cat --playback → PipeWire",
}
# Each aqplay path against the reference player on the same server.
REFERENCE = {"pulse": "paplay", "alsa-pulse": "paplay", "pipewire": "pw-cat"}


def commit():
    try:
        return subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"


def per_player(name):
    return [r for r in rows if r["player"] == name]


lines = [
    "# Glitches under pressure (Benchmarks/glitch)",
    "",
    f"- date: {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC",
    f"- commit: {commit()}",
    f"- machine: {os.cpu_count()} cores; load: {'a release build of the package (`swift build -c release -j 2`, restarted as it ends), stress-ng --vm 1 --vm-bytes 20%, the page cache dropped every 5 s' if load == '1' else 'none (baseline)'}",
    f"- source: {seconds} s of 48 kHz stereo 16-bit white noise; {int(seconds) * 48000 // 1024} blocks of 1024 frames",
    "- recorded from the null sink's monitor with parecord (niceness -5, 500 ms buffer); the WAVE-file output's own file is compared directly",
    "",
    "A block differs when it is not in the recording intact and right after the block before it (lost, damaged, or moved by inserted silence or dropped audio); `inserted` is the frames the recording holds beyond the source between the first and the last block found (negative: dropped). `missing at start` is blocks before the first one the monitor caught.",
    "",
    "| player | runs | differing blocks per run | inserted frames per run | missing at start | wall s | load (1 min) |",
    "|:---|---:|:---|:---|:---|:---|:---|",
]
for name in players:
    rs = per_player(name)
    lines.append(
        f"| {LABELS.get(name, name)} | {len(rs)} | {', '.join(str(r['result']['differing']) for r in rs)} "
        f"| {', '.join(str(r['result']['inserted_frames']) for r in rs)} "
        f"| {', '.join(str(r['result']['missing_at_start']) for r in rs)} "
        f"| {', '.join('%.2f' % r['wall'] for r in rs)} | {', '.join('%.2f' % r['load'] for r in rs)} |")
failed = [r for r in rows if r.get("status", 0) != 0]
for r in failed:
    lines.append(f"- {r['player']} run {r['run']} **failed** (exit status {r['status']}): its blocks count as differing")
lines.append("")
lines.append("## Goals")
lines.append("")
if "file" in players:
    worst = max(r["result"]["differing"] + abs(r["result"]["inserted_frames"]) for r in per_player("file"))
    lines.append(f"- WAVE-file output: 0 blocks differing and 0 frames inserted in every run: **{'met' if worst == 0 else 'NOT met'}**")
for name, ref in REFERENCE.items():
    if name in players and ref in players:
        ours = max(r["result"]["differing"] for r in per_player(name))
        theirs = max(r["result"]["differing"] for r in per_player(ref))
        lines.append(
            f"- {LABELS[name]}: at most {ours} differing blocks in a run, {ref} at most {theirs}: "
            f"**{'met' if ours <= theirs else 'NOT met'}**")
lines.append("")
with open(out_path, "w") as f:
    f.write("\n".join(lines))
print("\n".join(lines))
