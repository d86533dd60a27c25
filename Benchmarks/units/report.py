"""Writes Benchmarks/results/units.md from what Benchmarks/units/run measured.

    report.py WORK OUT ROOT SECONDS RUNS TRIALS
"""
import datetime, json, os, platform, re, statistics, subprocess, sys

work, out, root, seconds, runs, trials = sys.argv[1:7]
rows = [json.loads(line) for line in open(os.path.join(work, "cpu.jsonl")) if line.strip()]
latency = open(os.path.join(work, "latency.txt")).read().splitlines()
servers = [l.strip() for l in open(os.path.join(work, "servers.txt")) if l.strip()]
load_start = open(os.path.join(work, "load-start.txt")).read().strip()
load_end = open(os.path.join(work, "load-end.txt")).read().strip()
commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
cpu_model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())

def shown(command):
    """The command line with the build and data folders shortened."""
    command = re.sub(r"\S*/release/", "", command)
    return re.sub(r"\S*/\.data/", "", command)

# (server, name) -> the plays, in the order the commands ran
plays = {}
for r in rows:
    plays.setdefault((r["server"], r["name"]), []).append(r)

def med(key, samples):
    return statistics.median(key(s) for s in samples)

cpu = {k: med(lambda s: s["user"] + s["system"], v) for k, v in plays.items()}

lines = [
    "# Output units: CPU and latency (Benchmarks/units/run)",
    "",
    f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
    f"- commit: {commit}",
    f"- machine: {os.cpu_count()} cores, {cpu_model}; load average (1, 5, 15 min) {load_start} at the start, {load_end} at the end",
    f"- servers: {', '.join(servers)}, private, one null sink (`aqtest`, 48 kHz stereo float)",
    f"- what plays: a 440 Hz sine, 48 kHz stereo, a quarter of full scale, {seconds} s; unittone and queuetone make it in their callbacks, paplay and pw-cat read it from a 32-bit float WAVE file",
    "",
    "## CPU of the whole process",
    "",
    f"User + system seconds of the child (getrusage), median of {runs} plays, the commands taking turns; the server's own time is not counted, for any player. "
    "unittone: the default output unit, its render callback writing the sine, I/O cycles of 512 frames (the default) or 4096; "
    "queuetone: an output queue, three buffers of 4096 frames refilled in its callback.",
    "",
]
for server in dict.fromkeys(r["server"] for r in rows):
    lines += [f"### {'PulseAudio' if server == 'pulseaudio' else 'PipeWire'}", "",
              "| player | command | CPU s (median) | min | max | user s | system s | wall s | % of a core |",
              "|:---|:---|---:|---:|---:|---:|---:|---:|---:|"]
    for (s, name), samples in plays.items():
        if s != server:
            continue
        total = [p["user"] + p["system"] for p in samples]
        wall = med(lambda p: p["wall"], samples)
        lines.append(f"| {name} | `{shown(samples[0]['command'])}` | {statistics.median(total):.3f} | {min(total):.3f} | {max(total):.3f} | "
                     f"{med(lambda p: p['user'], samples):.3f} | {med(lambda p: p['system'], samples):.3f} | {wall:.2f} | "
                     f"{statistics.median(total) / wall * 100:.2f} |")
    lines.append("")

def ratio(server, a, b):
    if (server, a) in cpu and (server, b) in cpu and cpu[(server, b)] > 0:
        return f"- {server}: {a} / {b}: {cpu[(server, a)]:.3f} s / {cpu[(server, b)]:.3f} s = **{cpu[(server, a)] / cpu[(server, b)]:.2f}**"
    return None

lines += ["### Ratios (CPU seconds, medians)", ""]
for server, a, b in [
    ("pulseaudio", "unit", "queue"), ("pulseaudio", "unit, 4096-frame cycles", "queue"), ("pulseaudio", "unit", "paplay"),
    ("pulseaudio", "unit", "paplay --latency-msec=40"), ("pulseaudio", "queue", "paplay"),
    ("pipewire", "unit", "queue"), ("pipewire", "unit", "pw-cat --playback"), ("pipewire", "queue", "pw-cat --playback"),
    ("pipewire", "unit (pipewire-pulse)", "paplay (pipewire-pulse)"), ("pipewire", "queue (pipewire-pulse)", "paplay (pipewire-pulse)"),
]:
    r = ratio(server, a, b)
    if r:
        lines.append(r)
lines.append("")

lines += [
    "## From the callback to the sink",
    "",
    f"`tonelatency unit|queue aqtest {trials}` through PulseAudio: the player plays silence; each trial, the next callback writes a "
    "marker (a full-scale 1 kHz cosine, its first frame loud) and notes the host time it ran at; the sink's monitor is recorded "
    "the whole time (5 ms pieces, each with the host time the sink played its first frame), and the latency is the first monitor "
    "frame above 0.25 minus the callback's time. The unit (AUHAL on `pulse:aqtest`, 512-frame cycles) also reports when its "
    "callback's first frame will be heard (its time stamp's host time) and its latency property (the device's presentation "
    "delay); the queue has three buffers of 4096 frames.",
    "",
]
for l in latency:
    if l.startswith("measured"):
        lines.append(f"- {l}")
unit_trials = [l for l in latency if l.startswith("trial") and "predicted" in l]
if unit_trials:
    predicted = [float(re.search(r"predicted by the time stamp (-?[\d.]+)", l).group(1)) for l in unit_trials]
    reported = [float(re.search(r"unit latency (-?[\d.]+)", l).group(1)) for l in unit_trials]
    lines.append(f"- unit: predicted by its time stamps median={statistics.median(predicted):.2f} ms; its latency property median={statistics.median(reported):.2f} ms")
lines.append("")
# The notes at the end of the last report (from "## Notes" on) are kept.
if os.path.exists(out):
    previous = open(out).read()
    if "\n## Notes" in previous:
        lines.append(previous[previous.index("\n## Notes") + 1:].rstrip("\n"))
        lines.append("")
open(out, "w").write("\n".join(lines))
