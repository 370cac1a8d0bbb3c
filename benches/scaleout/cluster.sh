#!/usr/bin/env bash
# cluster.sh PORT MODE: three replicas of the benchmark's echo server behind haproxy on
# 127.0.0.1:PORT, until killed (SIGTERM/SIGINT stop every process it started).
#   MODE=pinned  in-memory sessions; haproxy pins each session to the replica that opened
#                it (a stick table on Mcp-Session-Id): what one can do without a store.
#   MODE=redis   sessions, events and the bus in Redis; plain round robin, so the calls
#                of one session spread over every replica.
# The command `ferrymcp bench --driver raw --mode legacy` starts (`{port}` is its free port); see run.sh.
set -euo pipefail
port=$1 mode=$2
root="$(cd "$(dirname "$0")/../.." && pwd)"
echo_server="$root/target/release/ferrymcp-echo"
tmp="$(mktemp -d)"
pids=()
stop() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$tmp"; }
trap stop EXIT
trap 'exit 0' TERM INT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 600); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.05; done; echo "nothing listens on $1" >&2; exit 1; }

args=()
if [ "$mode" = redis ]; then
  redis_port=$(free_port)
  redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no >/dev/null &
  pids+=($!)
  wait_port "$redis_port"
  args=("redis://127.0.0.1:$redis_port")
fi
servers=""
for i in 0 1 2; do
  p=$(free_port)
  "$echo_server" http "$p" "${args[@]}" >/dev/null &
  pids+=($!)
  wait_port "$p"
  servers+="  server r$i 127.0.0.1:$p"$'\n'
done
if [ "$mode" = pinned ]; then
  balance="  balance roundrobin
  stick-table type string len 64 size 100k expire 30m
  stick on req.hdr(mcp-session-id)
  stick store-response res.hdr(mcp-session-id)"
else
  balance="  balance roundrobin"
fi
cat > "$tmp/haproxy.cfg" <<CFG
global
  maxconn 4096
defaults
  mode http
  timeout connect 5s
  timeout client 60s
  timeout server 60s
frontend mcp
  bind 127.0.0.1:$port
  default_backend replicas
backend replicas
$balance
$servers
CFG
haproxy_bin=$(command -v haproxy || echo /usr/sbin/haproxy)
"$haproxy_bin" -db -f "$tmp/haproxy.cfg" &
pids+=($!)
wait "${pids[@]}"
