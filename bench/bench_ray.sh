#!/usr/bin/env bash
# Ray past one machine, shown on one machine: a Ray head and a second Ray node (two raylets, each
# in its own temp dir), then rollouts with 1, 2 and 4 actors through clients/ray_runner.py
# connected to that cluster (bench/bench_ray.py prints the table). Both nodes are stopped on exit.
#
#   bench/bench_ray.sh                      # 1, 2 and 4 actors, 600 episodes each, then a kill run
#   EPISODES=200 ACTORS=1,2 bench/bench_ray.sh --no-kill
#
# Each `ray start --block` is stopped by its own pid (its reaper then ends that node's
# processes); `ray stop` would end every Ray process on the machine, other users' too.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PY=${PYTHON:-python}
RAY=${RAY:-ray}
CPUS_PER_NODE=${CPUS_PER_NODE:-2}
EPISODES=${EPISODES:-600}
ACTORS=${ACTORS:-1,2,4}
export RAY_USAGE_STATS_ENABLED=0
# Token authentication with a token of this run only, shared by the two nodes and the driver
# through the environment (nothing is read from or written to ~/.ray).
export RAY_AUTH_MODE=token
RAY_AUTH_TOKEN=$("$PY" -c 'import secrets; print(secrets.token_hex(32))')
export RAY_AUTH_TOKEN
export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"  # the nodes' workers import this checkout

HEAD_DIR=$(mktemp -d /tmp/toolenv-ray-head.XXXXXX)
NODE_DIR=$(mktemp -d /tmp/toolenv-ray-node.XXXXXX)
PIDS=()
stop_nodes() {
    local pid
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$HEAD_DIR" "$NODE_DIR"
}
trap stop_nodes EXIT
trap 'exit 130' INT TERM

free_port() { "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

wait_started() {  # LOG PID: until `ray start` says the node is up, or fail with its log
    local i
    for i in $(seq 240); do
        grep -q "Ray runtime started" "$1" 2>/dev/null && return 0
        kill -0 "$2" 2>/dev/null || break
        sleep 0.5
    done
    echo "bench_ray.sh: a Ray node did not start; its log:" >&2
    cat "$1" >&2
    return 1
}

PORT=$(free_port)
# Every port a node listens on is picked free, so the bench never meets another Ray on this machine.
"$RAY" start --head --block --node-ip-address 127.0.0.1 --port "$PORT" --num-cpus "$CPUS_PER_NODE" \
    --temp-dir "$HEAD_DIR" --include-dashboard false --dashboard-port "$(free_port)" \
    --dashboard-agent-listen-port "$(free_port)" \
    --disable-usage-stats >"$HEAD_DIR/start.log" 2>&1 &
PIDS+=($!)
wait_started "$HEAD_DIR/start.log" "${PIDS[0]}"

"$RAY" start --address "127.0.0.1:$PORT" --block --node-ip-address 127.0.0.1 --num-cpus "$CPUS_PER_NODE" \
    --temp-dir "$NODE_DIR" --dashboard-agent-listen-port "$(free_port)" \
    --disable-usage-stats >"$NODE_DIR/start.log" 2>&1 &
PIDS+=($!)
wait_started "$NODE_DIR/start.log" "${PIDS[1]}"

"$PY" bench/bench_ray.py --address "127.0.0.1:$PORT" --nodes 2 --actors "$ACTORS" --episodes "$EPISODES" "$@"
