"""Writes Benchmarks/results/pipewire.md from what Benchmarks/pipewire/run measured.

    report.py WORKDIR OUT.md ROOT SINK QUANTUM
"""
import datetime, json, os, platform, statistics, subprocess, sys

work, out, root, sink, quantum = sys.argv[1:6]
lines = []
add = lines.append


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
    cpu = {}
    for label, samples in rows.items():
        cpu[label] = statistics.median((u + s) / w * 100 for w, u, s, _, _ in samples)
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
if os.path.exists(many_path):
    rows = {}
    for line in open(many_path):
        fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "queues" in fields:
            rows.setdefault((fields["backend"], int(fields["queues"])), []).append(fields)
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

open(out, "w").write("\n".join(lines) + "\n")
print("\n" + "\n".join(lines))
