#!/usr/bin/env bash
# What Redis spends on the limiter's script: redis-benchmark on a private redis-server (a free loopback
# port, no persistence; never the server on 6379), one EVALSHA deciding 8 of the sample's admitted
# requests (2 token buckets each, 1000000000/1m, 16 keys over 1000 values each: the batches the app sends on
# the admitted-many path), alternating token-buckets.lua with another script given as SCRIPT_B (a variant
# being tried) and, for scale, the floor app's single-key script deciding one bucket a call. Prints calls/s
# and Redis µs per request of each, PASSES times.
#
# Usage: bench/redis-script-cost.sh
# Environment: SCRIPT_B [none]: a second script taking the same KEYS and ARGV   PASSES [3]   N [40000]: calls
#   per pass   CLIENTS [8]: redis-benchmark's -c
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SCRIPT_A="$ROOT/ratelimit-autoconfigure/src/main/resources/META-INF/ratelimit/token-buckets.lua"
FLOOR="$ROOT/bench/floor-app/src/main/resources/floor-token-bucket.lua"
SCRIPT_B=${SCRIPT_B:-}
PASSES=${PASSES:-3}
N=${N:-40000}
CLIENTS=${CLIENTS:-8}
REQUESTS=8

if ! command -v redis-server >/dev/null || ! command -v redis-benchmark >/dev/null; then
	echo "needs redis-server and redis-benchmark (Debian: apt-get install redis-server redis-tools)" >&2
	exit 1
fi
[[ -z "$SCRIPT_B" || -f "$SCRIPT_B" ]] || { echo "SCRIPT_B: no file $SCRIPT_B" >&2; exit 1; }

port=
for _ in $(seq 1 200); do
	candidate=$((20000 + RANDOM % 20000))
	if ! (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then
		port=$candidate
		break
	fi
done
[[ -n "$port" ]] || { echo "no free loopback port" >&2; exit 1; }
dir=$(mktemp -d)
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" --daemonize yes \
	--pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
cli() { redis-cli -p "$port" "$@"; }
trap 'cli shutdown nosave >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
for _ in $(seq 1 50); do
	if cli ping >/dev/null 2>&1; then break; fi
	sleep 0.1
done

# KEYS and ARGV as in the header of token-buckets.lua: 8 requests, no lease, 2 buckets of cost 1, enforced,
# no wait, one bandwidth each
keys=()
args=(decide '' 30000 "$REQUESTS")
for ((i = 1; i <= REQUESTS; i++)); do
	keys+=("rl-cost:tier$i:__rand_int__" "rl-cost:backstop$i:__rand_int__")
	args+=('' 2 1 1 0 1 b 1000000000 1000000000 60000 1 1 0 1 b 1000000000 1000000000 60000)
done

# run LABEL REQUESTS-PER-CALL COMMAND...: calls/s and µs of Redis per request (one server thread)
run() {
	local label=$1 per=$2 line
	shift 2
	cli flushall >/dev/null
	line=$(redis-benchmark -p "$port" -c "$CLIENTS" -n "$N" -r 1000 --csv "$@" 2>/dev/null | sed -n '2p')
	awk -F'","' -v label="$label" -v per="$per" '{ rps = $2 + 0; printf "%-44s %9.0f calls/s  %6.1f us a request\n", label, rps, (rps > 0) ? 1e6 / rps / per : 0 }' <<<"$line"
}

sha_a=$(cli -x script load <"$SCRIPT_A")
[[ -z "$SCRIPT_B" ]] || sha_b=$(cli -x script load <"$SCRIPT_B")
sha_floor=$(cli -x script load <"$FLOOR")
echo "redis-benchmark -c $CLIENTS -n $N -r 1000 on redis $(redis-server --version | sed -n 's/.*v=\([^ ]*\).*/\1/p'), $(nproc) cpus"
for ((pass = 1; pass <= PASSES; pass++)); do
	run "token-buckets.lua, $REQUESTS requests x 2 buckets" "$REQUESTS" EVALSHA "$sha_a" "${#keys[@]}" "${keys[@]}" "${args[@]}"
	if [[ -n "$SCRIPT_B" ]]; then
		run "$(basename "$SCRIPT_B"), $REQUESTS requests x 2 buckets" "$REQUESTS" EVALSHA "$sha_b" "${#keys[@]}" "${keys[@]}" "${args[@]}"
	fi
	run "floor script, 1 request x 1 bucket" 1 EVALSHA "$sha_floor" 1 'rl-cost:floor:__rand_int__' 1000000000 60000
done
