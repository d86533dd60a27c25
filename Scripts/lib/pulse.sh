# A private PulseAudio server for the device tests: its own runtime directory, a null sink
# (aqtest, 48 kHz stereo float) whose monitor source records what was played to it, and no
# default.pa. Source it; it defines start_private_pulse and stop_private_pulse.

# start_private_pulse: starts the server and exports PULSE_RUNTIME_PATH (and AQ_TEST_SINK) so
# that libpulse, alsa-lib's pulse plugin and pactl in this shell and its children find it.
start_private_pulse() {
    PULSE_RUNTIME_PATH="$(mktemp -d "${TMPDIR:-/tmp}/aq-pulse.XXXXXX")"
    export PULSE_RUNTIME_PATH
    export AQ_TEST_SINK=aqtest
    # Clients here (pactl, the tests, alsa-lib's pulse plugin) never start a server of their own.
    printf 'autospawn = no\n' >"$PULSE_RUNTIME_PATH/client.conf"
    export PULSE_CLIENTCONFIG="$PULSE_RUNTIME_PATH/client.conf"
    if ! pulseaudio -n --daemonize=yes --exit-idle-time=-1 --use-pid-file=yes \
        --load="module-null-sink sink_name=aqtest format=float32le rate=48000 channels=2" \
        --load=module-native-protocol-unix >"$PULSE_RUNTIME_PATH/daemon.log" 2>&1; then
        echo "warning: the private PulseAudio server did not start:" >&2
        cat "$PULSE_RUNTIME_PATH/daemon.log" >&2
        return 1
    fi
    for _ in $(seq 1 50); do
        pactl info >/dev/null 2>&1 && break
        sleep 0.1
    done
    if pactl info >/dev/null 2>&1; then
        echo "PulseAudio server running (PULSE_RUNTIME_PATH=$PULSE_RUNTIME_PATH, null sink aqtest)"
    else
        echo "warning: the private PulseAudio server does not answer" >&2
        return 1
    fi
}

# stop_private_pulse: stops the server start_private_pulse started and removes its directory.
stop_private_pulse() {
    [ -n "${PULSE_RUNTIME_PATH:-}" ] || return 0
    pulseaudio --kill >/dev/null 2>&1 || true
    for _ in $(seq 1 30); do
        pactl info >/dev/null 2>&1 || break
        sleep 0.1
    done
    rm -rf "$PULSE_RUNTIME_PATH"
    unset PULSE_RUNTIME_PATH PULSE_CLIENTCONFIG
}
