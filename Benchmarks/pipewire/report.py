"""Writes Benchmarks/results/pipewire.md from what Benchmarks/pipewire/run measured.

    report.py WORKDIR OUT.md ROOT SINK QUANTUM
"""
import datetime, json, os, platform, statistics, subprocess, sys

work, out, root, sink, quantum = sys.argv[1:6]
lines = []
add = lines.append
# The notes on the runs are written by hand below the measurements; a new report keeps them.
NOTES = "## Notes"
notes = ""
if os.path.exists(out):
    previous = open(out).read()
    if "\n" + NOTES in previous:
        notes = previous[previous.index("\n" + NOTES) + 1:]


def text(command):
    return subprocess.run(command, capture_output=True, text=True).stdout.strip()


cpu_name = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
commit = text(["git", "-C", root, "rev-parse", "--short", "HEAD"])
dirty = text(["git", "-C", root, "status", "--porcelain"])
version = text(["pipewire", "--version"]).splitlines()
add("# Native PipeWire backend (Benchmarks/pipewire)")
add("")
add(f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")
add(f"- commit: {commit}{' (with uncommitted changes)' if dirty else ''}")
add(f"- machine: {os.cpu_count()} cores, {cpu_name}; load average at the end {os.getloadavg()[0]:.2f}")
add(f"- server: {version[-1] if version else 'pipewire'}, private (Scripts/lib/pipewire.sh), WirePlumber, pipewire-pulse; "
    f"null sink `{sink}` (48 kHz stereo float); quantum forced to {quantum} frames at 48 kHz for every player "
    "(`clock.force-quantum`, `clock.force-rate`)")
add("")


def cpu_table(name, title, intro, reference, ours, through_pulse):
    path = os.path.join(work, name)
    if not os.path.exists(path):
        return
    rows = json.load(open(path))
    add(f"## {title}")
    add("")
    add(intro)
    add("")
    add("| command | CPU % | wall s | user ms | system ms | threads | max RSS MiB |")
    add("|:---|---:|---:|---:|---:|---:|---:|")
    starts = rows.pop("start", {})
    cpu = {}
    for label, samples in rows.items():
        cpu[label] = statistics.median((r[1] + r[2]) / r[0] * 100 for r in samples)
        wall = statistics.median(r[0] for r in samples)
        user = statistics.median(r[1] for r in samples)
        system = statistics.median(r[2] for r in samples)
        threads = statistics.median(r[4] for r in samples)
        rss = max(r[3] for r in samples)
        add(f"| {label} | {cpu[label]:.2f} | {wall:.2f} | {user*1000:.0f} | {system*1000:.0f} | {threads:.0f} | {rss/1024:.1f} |")
    add("")
    if ours in cpu and reference in cpu and cpu[reference] > 0:
        verdict = "met" if cpu[ours] <= cpu[reference] else "NOT met"
        add(f"- {ours} {cpu[ours]:.2f} % of a core, {reference} {cpu[reference]:.2f} %: ratio **{cpu[ours]/cpu[reference]:.2f}**; "
            f"target ≤ {reference}: **{verdict}**")
    if ours in cpu and through_pulse in cpu and cpu[through_pulse] > 0:
        add(f"- {ours} against {through_pulse}: ratio **{cpu[ours]/cpu[through_pulse]:.2f}**")
    ratios = [((a[1] + a[2]) / a[0]) / ((b[1] + b[2]) / b[0]) for a, b in zip(rows.get(ours, []), rows.get(reference, []))
              if b[1] + b[2] > 0]
    if ratios:
        add(f"- the same, run by run (each pair measured one after the other): "
            + ", ".join(f"{r:.2f}" for r in ratios))
    add("")
    steady_table(rows, reference, ours)
    if starts:
        add("Starting and ending: CPU ms (user + system) of one run on a 0.1 s file, median of the runs "
            "(`aqplay --help`: loading the program and its libraries alone).")
        add("")
        for label, values in starts.items():
            add(f"- {label}: {statistics.median(values):.1f} ms")
        add("")


def steady_table(rows, reference, ours):
    """The steady state, 5 to 25 s into each run: CPU and context switches per thread name."""
    steady = {label: [r[5] for r in samples if len(r) > 5 and r[5]] for label, samples in rows.items()}
    if not any(steady.values()):
        return
    add("Steady state, 5 to 25 s into each run (CPU from /proc/PID/task/*/schedstat, context switches, voluntary "
        "and involuntary, from status; median of the runs): per thread name, context switches per second and CPU "
        "ms per second.")
    add("")
    add("| command | CPU ms/s | context switches/s | threads: switches/s, CPU ms/s |")
    add("|:---|---:|---:|:---|")
    medians = {}
    for label, samples in steady.items():
        if not samples:
            continue
        medians[label] = statistics.median(x["cpu_ms_per_s"] for x in samples)
        wakeups = statistics.median(x["wakeups_per_s"] for x in samples)
        names = sorted({n for x in samples for n in x["threads"]})
        parts = []
        for name in names:
            per = [x["threads"].get(name, [0, 0, 0]) for x in samples]
            count = max(p[2] for p in per)
            shown = f"{name} ×{count}" if count > 1 else name
            parts.append(f"`{shown}` {statistics.median(p[0] for p in per):.1f}, {statistics.median(p[1] for p in per):.2f}")
        add(f"| {label} | {medians[label]:.2f} | {wakeups:.1f} | {'; '.join(parts)} |")
    add("")
    if ours in medians and reference in medians and medians[reference] > 0:
        add(f"- steady state: {ours} {medians[ours]:.2f} ms/s, {reference} {medians[reference]:.2f} ms/s: "
            f"ratio **{medians[ours]/medians[reference]:.2f}**")
        add("")


cpu_table("play.json", "CPU while playing 30 s of 48 kHz stereo PCM",
          "Process user + system time over wall time (getrusage of the child), median of the runs; the server's own "
          "time is not counted. Threads: the process's threads 5 s into the play.",
          "pw-cat --playback", "aqplay (pipewire, native)", "aqplay (pulse, through pipewire-pulse)")
cpu_table("record.json", "CPU while recording 30 s of the sink's monitor",
          "16-bit 48 kHz stereo into WAVE, noise playing into the sink the whole time; each recorder stopped with "
          "SIGINT after 30 s; user + system over wall, median of the runs.",
          "pw-cat --record", "aqrecord (pipewire, native)", "aqrecord (pulse, through pipewire-pulse)")


def prefixed(name):
    path = os.path.join(work, name)
    if not os.path.exists(path):
        return []
    return [l.rstrip("\n").split(" ", 1) for l in open(path) if " " in l]


start = [(b, l) for b, l in prefixed("start.txt") if l.startswith(("cold", "warm"))]
if start:
    add("## Recording: start() to the first frames and the first callback")
    add("")
    add("`recordstart` (20 trials): an input queue on the sink's monitor, three buffers of 0.5 s; from just before "
        "`start()` to the first frames the device hands the queue, and to the first callback. Cold: a new queue "
        "(opening the device); warm: a restart after `stop(immediate: true)`.")
    add("")
    for backend, line in start:
        add(f"- {backend}: {line}")
    add("")

latency = [(b, l) for b, l in prefixed("latency.txt") if l.startswith(("cold", "warm"))]
if latency:
    add("## Latency: start() to the first frame on the sink")
    add("")
    add("`sinklatency` (20 trials): an output queue on the sink starts a full-scale tone; the sink's monitor, recorded "
        "through pipewire-pulse for both backends in pieces of 5 ms with the host time the sink played each, shows "
        "when its first frame was played. Cold: a new queue (opening the device); warm: a restart.")
    add("")
    for backend, line in latency:
        add(f"- {backend}: {line}")
    add("")

many_path = os.path.join(work, "many.txt")
rows = {}
if os.path.exists(many_path):
    for line in open(many_path):
        fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "queues" in fields:
            rows.setdefault((fields["backend"], int(fields["queues"])), []).append(fields)
if rows:
    add("## 32 queues at once")
    add("")
    add("`manyqueues`: one process, 0 or 32 output queues of 48 kHz stereo Float32 on the sink, each playing 150 ms "
        "every 500 ms; CPU of all the process's threads over 10 s after 2 s of warm-up, median of the runs.")
    add("")
    add("| backend | queues | threads | CPU % of a core | CPU % per queue, less the idle process |")
    add("|:---|---:|---:|---:|---:|")
    for backend in ("pipewire", "pulse"):
        base = statistics.median(float(f["cpu_percent"]) for f in rows.get((backend, 0), [{"cpu_percent": "0"}]))
        for n in (0, 32):
            if (backend, n) not in rows:
                continue
            cpu = statistics.median(float(f["cpu_percent"]) for f in rows[(backend, n)])
            threads = statistics.median(int(f["threads"]) for f in rows[(backend, n)])
            per = f"{(cpu - base) / n:.3f}" if n else "–"
            add(f"| {backend} | {n} | {threads:.0f} | {cpu:.3f} | {per} |")
    add("")

if notes:
    lines.append(notes.rstrip("\n"))
open(out, "w").write("\n".join(lines) + "\n")
print("\n" + "\n".join(lines))
