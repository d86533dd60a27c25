# A private PipeWire server with its PulseAudio front end (pipewire-pulse), the second real
# server the device tests run against: its own runtime and config directories, WirePlumber as
# the session manager (without one, streams are never linked), and a null sink aqtest whose
# monitor records what was played — the same names start_private_pulse exports, so the tests
# find it the same way. Runs headless as root without systemd or D-Bus: WirePlumber gets a
# private config without the flatpak portal and the ALSA, V4L2, libcamera and BlueZ monitors
# (with them it exits with status 70 here). Nothing exits on its own: stop_private_pipewire
# stops each process by its PID. Source it; it defines start_private_pipewire and
# stop_private_pipewire.
#
# Scripts/test runs the server-dependent suites (AudioDeviceTests, GuideTests, the audio-unit
# programs' suites) against it after the PulseAudio run, through pipewire-pulse, and then
# AudioDevicePipeWireTests natively.

# start_private_pipewire [SINK [DIR]]: starts pipewire, wireplumber and pipewire-pulse, with a
# null sink SINK (default aqtest) as the default, in DIR (default a new temporary directory),
# and exports PULSE_RUNTIME_PATH (DIR/run/pulse; and AQ_TEST_SINK, AQ_SERVER_NAME=pipewire) for
# libpulse, alsa-lib's pulse plugin and pactl, and PIPEWIRE_RUNTIME_DIR (DIR/run, where its
# socket pipewire-0 is) for native clients (the pipewire backend, pw-cat, pw-cli, pw-metadata),
# in this shell and its children.
start_private_pipewire() {
    local sink="${1:-aqtest}"
    if [ -n "${2:-}" ]; then
        AQ_PIPEWIRE_DIR="$2"
        mkdir -p "$AQ_PIPEWIRE_DIR"
    else
        AQ_PIPEWIRE_DIR="$(mktemp -d "${TMPDIR:-/tmp}/aq-pipewire.XXXXXX")"
    fi
    export AQ_PIPEWIRE_DIR
    local run="$AQ_PIPEWIRE_DIR/run" conf="$AQ_PIPEWIRE_DIR/config/wireplumber"
    mkdir -p "$run/pulse" "$conf/main.lua.d" "$conf/bluetooth.lua.d" "$AQ_PIPEWIRE_DIR/state"
    chmod 700 "$run"
    cat >"$conf/main.lua.d/60-aq-headless.lua" <<'LUA'
-- No hardware, no portal: a headless server for tests.
alsa_monitor.enabled = false
v4l2_monitor.enabled = false
libcamera_monitor.enabled = false
default_access.properties["enable-flatpak-portal"] = false
LUA
    printf 'bluez_monitor.enabled = false\n' >"$conf/bluetooth.lua.d/60-aq-headless.lua"
    export PULSE_RUNTIME_PATH="$run/pulse"
    export PIPEWIRE_RUNTIME_DIR="$run"  # native clients (AudioDevicePipeWire, pw-cat, pw-metadata) find the server
    export AQ_TEST_SINK="$sink" AQ_SERVER_NAME=pipewire
    printf 'autospawn = no\n' >"$AQ_PIPEWIRE_DIR/client.conf"
    export PULSE_CLIENTCONFIG="$AQ_PIPEWIRE_DIR/client.conf"
    local env=(env XDG_RUNTIME_DIR="$run" PIPEWIRE_RUNTIME_DIR="$run" XDG_CONFIG_HOME="$AQ_PIPEWIRE_DIR/config"
        XDG_STATE_HOME="$AQ_PIPEWIRE_DIR/state" DBUS_SESSION_BUS_ADDRESS=disabled: DISPLAY=)
    _aq_pipewire_spawn pipewire "${env[@]}" pipewire
    for _ in $(seq 1 50); do [ -S "$run/pipewire-0" ] && break; sleep 0.1; done
    _aq_pipewire_spawn wireplumber "${env[@]}" wireplumber
    _aq_pipewire_spawn pipewire-pulse "${env[@]}" pipewire-pulse
    for _ in $(seq 1 50); do
        pactl info >/dev/null 2>&1 && break
        sleep 0.1
    done
    if ! pactl info >/dev/null 2>&1; then
        echo "warning: the private PipeWire server does not answer:" >&2
        tail -n 20 "$AQ_PIPEWIRE_DIR"/*.log >&2
        return 1
    fi
    pactl load-module module-null-sink sink_name="$sink" format=float32le rate=48000 channels=2 >/dev/null
    pactl set-default-sink "$sink"
    # The session manager links streams only once it has seen the sink.
    for _ in $(seq 1 50); do
        pactl list short sinks 2>/dev/null | cut -f2 | grep -qx "$sink" && break
        sleep 0.1
    done
    if ! kill -0 "$(cat "$AQ_PIPEWIRE_DIR/wireplumber.pid")" 2>/dev/null; then
        echo "warning: WirePlumber exited:" >&2
        tail -n 20 "$AQ_PIPEWIRE_DIR/wireplumber.log" >&2
        return 1
    fi
    echo "PipeWire server running ($(pactl info | sed -n 's/^Server Name: //p'), PULSE_RUNTIME_PATH=$PULSE_RUNTIME_PATH, null sink $sink)"
}

# _aq_pipewire_spawn NAME COMMAND...: runs COMMAND in the background, its output in NAME.log and
# its PID in NAME.pid, holding no descriptor of this shell's but the standard ones: a program
# that started this shell and waits for its descriptors to close (Foundation's Process does)
# would otherwise wait for the daemon too.
_aq_pipewire_spawn() {
    local name="$1"
    shift
    (
        for fd in $(ls /proc/$BASHPID/fd); do
            [ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null
        done
        exec "$@"
    ) >"$AQ_PIPEWIRE_DIR/$name.log" 2>&1 </dev/null &
    echo $! >"$AQ_PIPEWIRE_DIR/$name.pid"
}

# stop_private_pipewire: stops the three processes and removes the directory.
stop_private_pipewire() {
    [ -n "${AQ_PIPEWIRE_DIR:-}" ] || return 0
    local name pid
    for name in pipewire-pulse wireplumber pipewire; do
        pid="$(cat "$AQ_PIPEWIRE_DIR/$name.pid" 2>/dev/null || true)"
        [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
    done
    for name in pipewire-pulse wireplumber pipewire; do
        pid="$(cat "$AQ_PIPEWIRE_DIR/$name.pid" 2>/dev/null || true)"
        [ -n "$pid" ] || continue
        for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    rm -rf "$AQ_PIPEWIRE_DIR"
    unset AQ_PIPEWIRE_DIR PULSE_RUNTIME_PATH PIPEWIRE_RUNTIME_DIR PULSE_CLIENTCONFIG AQ_SERVER_NAME
}
