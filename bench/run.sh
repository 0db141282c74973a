#!/usr/bin/env bash
# HTTP load benchmark: the sample app with the limiter off, in memory, on Redis (script and Bucket4j
# strategies), and bucket4j-spring-boot-starter (bench/peer-app) in memory and on Redis, side by side
# in one run, on loopback, driven by wrk; plus redis-benchmark running the limiter's Lua script on the
# same Redis at the same concurrency. Prints one table of medians and ratios vs 'off'. Then (unless
# JMH=0) the JMH RedisDecisionBenchmark on the same Redis: script decisions/s at JMH_THREADS threads vs
# redis-benchmark running the same script with the same KEYS/ARGV shape at -c JMH_THREADS, and the hot-key
# p99 of both strategies at 16 threads (adds about 1-1.5 minutes with the default JMH_OPTS).
#
# Usage: bench/run.sh [--save] [--no-build]
#   --save       also write the report to bench/results/http-<date>.txt
#   --no-build   build nothing: use the jars already built
# Environment (defaults in brackets):
#   DURATION [10s]  ROUNDS [2]  CONNECTIONS [32]  THREADS [2]  WARMUP [min(2 x DURATION, 20s)]
#   VARIANTS ["off memory redis-script redis-bucket4j peer-memory peer-redis"]
#   JAVA_OPTS [-Xms512m -Xmx512m]  START_TIMEOUT [60] (seconds)  REDIS_BENCH_N [20000 x DURATION s]
#   SAMPLE_JAR, PEER_JAR: use these jars instead of building the sample app, the peer app
#     (built to sample-app/target/sample-app.jar and bench/peer-app/target/peer-app.jar)
#   KEEP_LOGS [0]: 1 keeps the app, wrk and Redis logs (always kept when the run fails)
#   JMH [1]: 0 skips the JMH step   JMH_THREADS [16]   JMH_OPTS [-f 1 -wi 2 -w 3s -i 3 -r 3s]
#   BENCH_JAR: use this JMH jar instead of building it (built to bench/target/benchmarks.jar)
# Quick smoke run (about 2-3 minutes): DURATION=2s ROUNDS=1 bench/run.sh
# See bench/README.md, section "HTTP load: bench/run.sh".
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH="$ROOT/bench"

SAVE=0
BUILD=1
for arg in "$@"; do
	case "$arg" in
		--save) SAVE=1 ;;
		--no-build) BUILD=0 ;;
		-h | --help)
			sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
			exit 0
			;;
		*)
			echo "unknown argument: $arg (try --help)" >&2
			exit 2
			;;
	esac
done

NOW=$(date -u +%Y-%m-%dT%H:%M:%SZ)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
DURATION=${DURATION:-10s}
ROUNDS=${ROUNDS:-2}
CONNECTIONS=${CONNECTIONS:-32}
THREADS=${THREADS:-2}
VARIANTS=${VARIANTS:-"off memory redis-script redis-bucket4j peer-memory peer-redis"}
JAVA_OPTS=${JAVA_OPTS:-"-Xms512m -Xmx512m"}
START_TIMEOUT=${START_TIMEOUT:-60}
BUILD_SAMPLE=1
BUILD_PEER=1
if [[ -n "${SAMPLE_JAR:-}" ]]; then BUILD_SAMPLE=0; fi
if [[ -n "${PEER_JAR:-}" ]]; then BUILD_PEER=0; fi
SAMPLE_JAR=${SAMPLE_JAR:-"$ROOT/sample-app/target/sample-app.jar"}
PEER_JAR=${PEER_JAR:-"$BENCH/peer-app/target/peer-app.jar"}
KEEP_LOGS=${KEEP_LOGS:-0}
JMH=${JMH:-1}
JMH_THREADS=${JMH_THREADS:-16}
JMH_OPTS=${JMH_OPTS:-"-f 1 -wi 2 -w 3s -i 3 -r 3s"}
BUILD_BENCH=1
if [[ -n "${BENCH_JAR:-}" ]]; then BUILD_BENCH=0; fi
BENCH_JAR=${BENCH_JAR:-"$BENCH/target/benchmarks.jar"}
LUA_SCRIPT="$ROOT/ratelimit-autoconfigure/src/main/resources/META-INF/ratelimit/token-buckets.lua"
PEER_VERSION=$(sed -n 's:.*<bucket4j-spring-boot-starter.version>\(.*\)</bucket4j-spring-boot-starter.version>.*:\1:p' "$BENCH/peer-app/pom.xml")
PEER_BUCKET4J=$(sed -n 's:.*<peer.bucket4j.version>\(.*\)</peer.bucket4j.version>.*:\1:p' "$BENCH/peer-app/pom.xml")

# the limits of the two paths (the peer app's application.yml has the same ones)
ADMITTED_LIMIT="1000000000/1m"
SAMPLE_ARGS=(--ratelimit.tiers.anonymous.ip.default="$ADMITTED_LIMIT" --ratelimit.ip.default="$ADMITTED_LIMIT")

log() { printf '[bench %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() {
	log "ERROR: $*"
	exit 1
}

# seconds in a wrk duration (10, 10s, 2m, 1h)
seconds_of() {
	local value=$1
	case "$value" in
		*s) echo "${value%s}" ;;
		*m) echo $((${value%m} * 60)) ;;
		*h) echo $((${value%h} * 3600)) ;;
		*) echo "$value" ;;
	esac
}

DURATION_S=$(seconds_of "$DURATION")
[[ "$DURATION_S" =~ ^[0-9]+$ && "$DURATION_S" -gt 0 ]] || die "DURATION must look like 10s, 2m (got '$DURATION')"
[[ "$ROUNDS" =~ ^[0-9]+$ && "$ROUNDS" -gt 0 ]] || die "ROUNDS must be a positive integer (got '$ROUNDS')"
[[ "$CONNECTIONS" =~ ^[0-9]+$ && "$CONNECTIONS" -gt 0 ]] || die "CONNECTIONS must be a positive integer"
[[ "$JMH" == 0 || "$JMH" == 1 ]] || die "JMH must be 0 or 1 (got '$JMH')"
[[ "$JMH_THREADS" =~ ^[0-9]+$ && "$JMH_THREADS" -gt 0 ]] || die "JMH_THREADS must be a positive integer"
if [[ -z "${WARMUP:-}" ]]; then
	# every variant is a fresh JVM: the JIT needs 20-30 s of load before figures settle (measured: the
	# Redis variant served 10k req/s 5 s in and 25k after a minute), so warm up for twice the run, at most 20 s
	if ((DURATION_S < 5)); then WARMUP="${DURATION_S}s"; elif ((DURATION_S * 2 < 20)); then WARMUP="$((DURATION_S * 2))s"; else WARMUP="20s"; fi
fi
WARMUP_S=$(seconds_of "$WARMUP")
REDIS_BENCH_N=${REDIS_BENCH_N:-$((DURATION_S < 1 ? 20000 : DURATION_S * 20000))}
for variant in $VARIANTS; do
	case "$variant" in
		off | memory | redis-script | redis-bucket4j | peer-memory | peer-redis) ;;
		*) die "unknown variant '$variant'" ;;
	esac
done

# ---------------------------------------------------------------------------------------------------
# tools

install_packages() {
	if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
		die "missing $*: install them (Debian: apt-get install $*)"
	fi
	log "installing $* with apt-get"
	apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}

missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v redis-server >/dev/null || missing+=(redis-server)
command -v redis-benchmark >/dev/null || missing+=(redis-tools)
command -v curl >/dev/null || missing+=(curl)
if ((${#missing[@]})); then install_packages "${missing[@]}"; fi
command -v java >/dev/null || die "java not found (JDK 17+)"
if ((BUILD)); then command -v mvn >/dev/null || die "mvn not found"; fi

# ---------------------------------------------------------------------------------------------------
# processes: everything started here is stopped on exit, by its pid

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ratelimit-bench.XXXXXX")
APP_PID=""
REDIS_PID=""
SUCCESS=0

stop_pid() {
	local pid=$1
	[[ -n "$pid" ]] || return 0
	kill "$pid" 2>/dev/null || return 0
	local i
	for i in $(seq 1 40); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.25
	done
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}

cleanup() {
	local status=$?
	stop_pid "$APP_PID"
	APP_PID=""
	stop_pid "$REDIS_PID"
	REDIS_PID=""
	if ((SUCCESS)) && [[ "$KEEP_LOGS" != 1 ]]; then
		rm -rf "$WORK"
	else
		log "logs kept in $WORK"
	fi
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# a loopback port nothing listens on, below the kernel's ephemeral range (so no client socket of an
# earlier run holds it), never 6379
EPHEMERAL_LOW=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
((EPHEMERAL_LOW > 12000)) || EPHEMERAL_LOW=32768
free_port() {
	local port i
	for i in $(seq 1 200); do
		port=$((10000 + RANDOM % (EPHEMERAL_LOW - 10000)))
		[[ $port -eq 6379 ]] && continue
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			echo "$port"
			return 0
		fi
	done
	die "no free loopback port found"
}

# ---------------------------------------------------------------------------------------------------
# build

if ((BUILD && BUILD_SAMPLE && JMH && BUILD_BENCH)); then
	# one reactor for both: the library is built once
	log "building the sample app and the JMH benchmarks (mvn -Pbench package -pl sample-app,bench -am)"
	(cd "$ROOT" && mvn -B -q -Pbench -DskipTests -Dinvoker.skip package -pl sample-app,bench -am) >&2 ||
		die "the sample app or the benchmarks do not build (or pass SAMPLE_JAR=..., BENCH_JAR=..., or JMH=0)"
elif ((BUILD && BUILD_SAMPLE)); then
	log "building the sample app (mvn package -pl sample-app -am)"
	(cd "$ROOT" && mvn -B -q -DskipTests -Dinvoker.skip package -pl sample-app -am) >&2 ||
		die "the sample app does not build (or pass SAMPLE_JAR=<a built sample-app.jar>)"
elif ((BUILD && JMH && BUILD_BENCH)); then
	log "building the JMH benchmarks (mvn -Pbench package -pl bench -am)"
	(cd "$ROOT" && mvn -B -q -Pbench -DskipTests -Dinvoker.skip package -pl bench -am) >&2 ||
		die "the benchmarks do not build (or pass BENCH_JAR=<a built benchmarks.jar>, or JMH=0)"
fi
if ((BUILD && BUILD_PEER)); then
	log "building the peer app (bench/peer-app)"
	mvn -B -q -f "$BENCH/peer-app/pom.xml" -DskipTests package >&2 || die "the peer app does not build"
fi
[[ -f "$SAMPLE_JAR" ]] || die "no sample app jar at $SAMPLE_JAR (run without --no-build)"
[[ -f "$PEER_JAR" ]] || die "no peer app jar at $PEER_JAR (run without --no-build)"
if ((JMH)); then [[ -f "$BENCH_JAR" ]] || die "no JMH jar at $BENCH_JAR (run without --no-build, or JMH=0)"; fi

# ---------------------------------------------------------------------------------------------------
# Redis: our own server on a free loopback port, nothing saved

REDIS_PORT=$(free_port)
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
	--logfile "$WORK/redis.log" &
REDIS_PID=$!
for i in $(seq 1 40); do
	[[ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" == PONG ]] && break
	kill -0 "$REDIS_PID" 2>/dev/null || die "redis-server did not start (see $WORK/redis.log)"
	sleep 0.25
done
[[ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" == PONG ]] || die "redis-server did not answer"
REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
rcli() { redis-cli -h 127.0.0.1 -p "$REDIS_PORT" "$@"; }
log "redis-server $REDIS_URL (pid $REDIS_PID)"

# ---------------------------------------------------------------------------------------------------
# apps

uses_redis() { [[ "$1" == redis-* || "$1" == peer-redis ]]; }

# start_app VARIANT PORT: starts the variant, waits until it answers (bounded), sets APP_PID
start_app() {
	local variant=$1 port=$2 jar args=() env=(-u REDIS_URL)
	case "$variant" in
		off) jar=$SAMPLE_JAR args=(--ratelimit.enabled=false) ;;
		memory) jar=$SAMPLE_JAR args=("${SAMPLE_ARGS[@]}") ;;
		redis-script)
			jar=$SAMPLE_JAR env=(REDIS_URL="$REDIS_URL")
			args=(--spring.profiles.active=redis --ratelimit.storage.redis.strategy=script "${SAMPLE_ARGS[@]}")
			;;
		redis-bucket4j)
			jar=$SAMPLE_JAR env=(REDIS_URL="$REDIS_URL")
			# the bucket4j strategy decides token buckets only: without the sample's export concurrency cap and
			# premium quota (neither is on the benchmarked paths), or it refuses to start
			args=(--spring.profiles.active=redis --ratelimit.storage.redis.strategy=bucket4j
				--ratelimit.groups.export.concurrency=0 --ratelimit.tiers.premium.quota.org=1000000000/1h "${SAMPLE_ARGS[@]}")
			;;
		peer-memory) jar=$PEER_JAR ;;
		peer-redis) jar=$PEER_JAR env=(REDIS_URL="$REDIS_URL") args=(--spring.profiles.active=redis) ;;
	esac
	local logfile="$WORK/app-$variant-$ROUND.log"
	# shellcheck disable=SC2086 # JAVA_OPTS is a list of options
	env "${env[@]}" java $JAVA_OPTS -jar "$jar" --server.port="$port" --server.address=127.0.0.1 \
		--spring.main.banner-mode=off "${args[@]}" >"$logfile" 2>&1 &
	APP_PID=$!
	local deadline=$((SECONDS + START_TIMEOUT)) code
	while ((SECONDS < deadline)); do
		code=$(curl -s -o /dev/null -m 2 -w '%{http_code}' "http://127.0.0.1:$port/v1/status" || true)
		[[ "$code" != 000 && -n "$code" ]] && return 0
		if ! kill -0 "$APP_PID" 2>/dev/null; then
			tail -n 30 "$logfile" >&2
			die "$variant exited during startup (log: $logfile)"
		fi
		sleep 0.5
	done
	tail -n 30 "$logfile" >&2
	die "$variant did not answer within ${START_TIMEOUT}s (log: $logfile)"
}

# run_wrk DURATION METHOD URL COUNT_STATUS: prints the WRK_RESULT fields
run_wrk() {
	local duration=$1 method=$2 url=$3 count=$4 out
	out="$WORK/wrk-$ROUND-$VARIANT-$method-$count.log"
	WRK_METHOD=$method WRK_COUNT_STATUS=$count timeout "$(($(seconds_of "$duration") + 60))" \
		wrk -t"$THREADS" -c"$CONNECTIONS" -d"$duration" -s "$BENCH/wrk-report.lua" "$url" >"$out" 2>&1 ||
		die "wrk failed on $url (log: $out)"
	grep '^WRK_RESULT ' "$out" | tail -n 1 | sed 's/^WRK_RESULT //' || die "no result from wrk (log: $out)"
}

field() { # field NAME "k=v k=v ...": the value of k
	local name=$1 kv
	for kv in $2; do
		[[ "${kv%%=*}" == "$name" ]] && { echo "${kv#*=}"; return 0; }
	done
	echo 0
}

# the kinds of store keys a Redis variant left (hash: our script; string: Bucket4j's CAS)
key_types() {
	local key types=""
	while IFS= read -r key; do
		[[ -n "$key" ]] || continue
		types+="$(rcli type "$key") "
	done < <(rcli --scan | head -n 20)
	echo "$types" | tr ' ' '\n' | sed '/^$/d' | sort | uniq -c | awk '{printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1}'
}

RESULTS="$WORK/results.tsv"   # round variant path rps p50_us p99_us requests status_errors socket_errors
CHECKS="$WORK/checks.tsv"     # round variant path requests s200 s429 sother (warm-up, counted)
KEYS="$WORK/keys.tsv"         # round variant key-types
: >"$RESULTS"
: >"$CHECKS"
: >"$KEYS"

PATHS=("admitted GET /v1/status" "saturated POST /v1/auth/login")

runs=$((ROUNDS * $(wc -w <<<"$VARIANTS")))
log "$runs runs: ${ROUNDS} round(s) x [$VARIANTS], wrk -t$THREADS -c$CONNECTIONS, warm-up $WARMUP + run $DURATION per path"
run=0
for ((ROUND = 1; ROUND <= ROUNDS; ROUND++)); do
	for VARIANT in $VARIANTS; do
		run=$((run + 1))
		if uses_redis "$VARIANT"; then rcli flushall >/dev/null; fi
		port=$(free_port)
		log "run $run/$runs: round $ROUND, $VARIANT on port $port"
		start_app "$VARIANT" "$port"
		# warm-ups, counting every response's status: the admitted path must answer 200, the saturated
		# one 429 once its 50 tokens are gone
		for spec in "${PATHS[@]}"; do
			read -r path method uri <<<"$spec"
			r=$(run_wrk "$WARMUP" "$method" "http://127.0.0.1:$port$uri" 1)
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$ROUND" "$VARIANT" "$path" "$(field requests "$r")" \
				"$(field s200 "$r")" "$(field s429 "$r")" "$(field sother "$r")" >>"$CHECKS"
		done
		# measured runs
		for spec in "${PATHS[@]}"; do
			read -r path method uri <<<"$spec"
			r=$(run_wrk "$DURATION" "$method" "http://127.0.0.1:$port$uri" 0)
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$ROUND" "$VARIANT" "$path" "$(field rps "$r")" \
				"$(field p50_us "$r")" "$(field p99_us "$r")" "$(field requests "$r")" \
				"$(field status_errors "$r")" "$(field socket_errors "$r")" >>"$RESULTS"
			log "  $path: $(field rps "$r") req/s, p50 $(field p50_us "$r") us, p99 $(field p99_us "$r") us, status>=400: $(field status_errors "$r")/$(field requests "$r")"
		done
		if uses_redis "$VARIANT"; then
			printf '%s\t%s\t%s\n' "$ROUND" "$VARIANT" "$(key_types)" >>"$KEYS"
		fi
		stop_pid "$APP_PID"
		APP_PID=""
		sleep 1
	done
done

# ---------------------------------------------------------------------------------------------------
# redis-benchmark: the limiter's script on the same server at the same concurrency

REDIS_BENCH="$WORK/redis-bench.tsv" # label rps p50_ms p99_ms
: >"$REDIS_BENCH"
redis_bench() { # redis_bench LABEL COMMAND...
	local label=$1 line
	shift
	line=$(redis-benchmark -h 127.0.0.1 -p "$REDIS_PORT" -c "$CONNECTIONS" -n "$REDIS_BENCH_N" --csv "$@" 2>/dev/null |
		sed -n '2p') || true
	if [[ -z "$line" ]]; then
		log "redis-benchmark gave no result for $label"
		return 0
	fi
	# "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
	awk -F'","' -v label="$label" '{ gsub(/"/, "", $8); printf "%s\t%s\t%s\t%s\n", label, $2, $5, $7 }' <<<"$line" >>"$REDIS_BENCH"
}

SCRIPT_NOTE=""
# what the sample app sends for one anonymous request, per the header of token-buckets.lua:
# KEYS = the tier's ip bucket, the per-ip backstop; ARGV = decide, '' (server clock), lease ms, 1 request: no
# lease id (''), 2 buckets, then per bucket cost, enforced, max wait ms, number of items, and per item
# 'b' capacity, refill tokens, period ms
ADMITTED_ARGV=(decide '' 30000 1 '' 2 1 1 0 1 b 1000000000 1000000000 60000 1 1 0 1 b 1000000000 1000000000 60000)
SATURATED_ARGV=(decide '' 30000 1 '' 2 1 1 0 2 b 50 50 60000 b 500 500 3600000 1 1 0 1 b 1000000000 1000000000 60000)
rcli flushall >/dev/null
if [[ -f "$LUA_SCRIPT" ]]; then
	SHA=$(rcli -x script load <"$LUA_SCRIPT")
	first=$(rcli evalsha "$SHA" 2 bench:ip:default:127.0.0.1 bench:backstop:default:127.0.0.1 "${ADMITTED_ARGV[@]}" 2>&1 | head -n 1)
	if [[ "$first" != 1 ]]; then
		SCRIPT_NOTE="the script did not admit the admitted-path call (reply: $first): check its KEYS/ARGV against the header of token-buckets.lua"
	fi
	log "redis-benchmark -c $CONNECTIONS -n $REDIS_BENCH_N: EVALSHA token-buckets.lua"
	redis_bench "EVALSHA token-buckets.lua, admitted path (2 buckets: 1+1 bandwidths)" \
		EVALSHA "$SHA" 2 bench:ip:default:127.0.0.1 bench:backstop:default:127.0.0.1 "${ADMITTED_ARGV[@]}"
	redis_bench "EVALSHA token-buckets.lua, saturated path (2 buckets: 2+1 bandwidths)" \
		EVALSHA "$SHA" 2 bench:ip:auth:127.0.0.1 bench:backstop:default:127.0.0.1 "${SATURATED_ARGV[@]}"
	last=$(rcli evalsha "$SHA" 2 bench:ip:auth:127.0.0.1 bench:backstop:default:127.0.0.1 "${SATURATED_ARGV[@]}" 2>&1 | head -n 1)
	if [[ "$last" != 0 ]]; then
		SCRIPT_NOTE="${SCRIPT_NOTE:+$SCRIPT_NOTE; }the saturated-path call was still admitted after the run (reply: $last)"
	fi
else
	SCRIPT_NOTE="no $LUA_SCRIPT: the script benchmark was skipped"
fi
log "redis-benchmark: EVAL of a trivial script"
redis_bench "EVAL \"return 1\" 0 (trivial script, for scale)" EVAL 'return 1' 0

# ---------------------------------------------------------------------------------------------------
# JMH: the Redis decision alone (RedisDecisionBenchmark) on the same server, and redis-benchmark with the
# same script, KEYS/ARGV shape and concurrency right after (DESIGN.md section 12: a Redis decision's
# throughput within 70% of redis-benchmark running an equivalent script at the same concurrency)

JMH_THROUGHPUT="$WORK/jmh-throughput.csv" # JMH CSV: script, keys10k, -t JMH_THREADS, ops/s
JMH_HOTKEY="$WORK/jmh-hotkey.csv"         # JMH CSV: both strategies, hotKey_t16, sample time in ms
JMH_REDIS_BENCH="$WORK/jmh-redis-bench.tsv" # label rps p50_ms p99_ms
JMH_NOTES=()
: >"$JMH_REDIS_BENCH"
# one decision of RedisDecisionBenchmark.keys10k, in the shape of ADMITTED_ARGV above: one bucket (a
# random key of 10,000) in 1 request, cost 1, enforced, no wait, one bandwidth 1000000000/1m
JMH_ARGV=(decide '' 30000 1 '' 1 1 1 0 1 b 1000000000 1000000000 60000)

# run_jmh NAME CSV JMH-ARGUMENTS...: runs the JMH jar on our Redis (bounded); a failure is noted, not fatal
run_jmh() {
	local name=$1 csv=$2 out="$WORK/jmh-$1.log" started=$SECONDS
	shift 2
	log "JMH $name: java -jar ${BENCH_JAR#"$ROOT"/} $* $JMH_OPTS"
	# shellcheck disable=SC2086 # JMH_OPTS is a list of options
	if ! RATELIMIT_BENCH_REDIS_URL="$REDIS_URL" timeout 900 java -jar "$BENCH_JAR" "$@" $JMH_OPTS \
		-rf csv -rff "$csv" >"$out" 2>&1; then
		JMH_NOTES+=("JMH $name exited with an error (log: $out)")
	fi
	[[ -f "$csv" ]] || : >"$csv"
	# a benchmark that failed part-way still leaves the figures of its first iterations: drop them
	local failed strategy
	failed=$(awk '/^# Parameters: \(strategy = / { s = $0; sub(/.*strategy = /, "", s); sub(/\).*/, "", s) }
		/<failure>/ { print s }' "$out" | sort -u)
	for strategy in $failed; do
		JMH_NOTES+=("JMH $name: the $strategy benchmark failed, its figures are dropped (log: $out)")
		awk -v s="$strategy" '{ line = $0; sub(/\r$/, "", line); n = split(line, f, ","); if (n < 8 || f[8] != s) print }' \
			"$csv" >"$csv.kept" && mv "$csv.kept" "$csv"
	done
	# decisions that failed (StoreUnavailableException) are counted by the benchmark, one line per iteration
	if grep -q '\[RedisDecisionBenchmark\].*measurement iteration' "$out"; then
		JMH_NOTES+=("JMH $name: decisions failed during measurement: $(grep -o '\[RedisDecisionBenchmark\].*measurement iteration: [0-9]* of [0-9]*' "$out" | awk '!seen[$0]++' | head -n 3 | sed 's/^\[RedisDecisionBenchmark\] //; s/$/ failed/' | paste -sd ';' - | sed 's/;/; /g')")
	fi
	if ((${#JMH_NOTES[@]})); then KEEP_LOGS=1; fi
	log "  JMH $name took $((SECONDS - started)) s"
}

if ((JMH)); then
	JMH_STARTED=$SECONDS
	rcli flushall >/dev/null
	run_jmh throughput "$JMH_THROUGHPUT" 'RedisDecisionBenchmark\.keys10k_t16$' -p strategy=script -bm thrpt -tu s \
		-t "$JMH_THREADS"
	if [[ -f "$LUA_SCRIPT" ]]; then
		SHA=$(rcli -x script load <"$LUA_SCRIPT")
		first=$(rcli evalsha "$SHA" 1 rl-bench:redis-benchmark:user:check "${JMH_ARGV[@]}" 2>&1 | head -n 1)
		[[ "$first" == 1 ]] || JMH_NOTES+=("the script did not admit the redis-benchmark call (reply: $first)")
		log "redis-benchmark -c $JMH_THREADS -n $REDIS_BENCH_N -r 10000: EVALSHA token-buckets.lua, 1 random key of 10,000"
		line=$(redis-benchmark -h 127.0.0.1 -p "$REDIS_PORT" -c "$JMH_THREADS" -n "$REDIS_BENCH_N" -r 10000 --csv \
			EVALSHA "$SHA" 1 'rl-bench:redis-benchmark:user:__rand_int__' "${JMH_ARGV[@]}" 2>/dev/null | sed -n '2p') || true
		if [[ -n "$line" ]]; then
			awk -F'","' '{ gsub(/"/, "", $8); printf "EVALSHA\t%s\t%s\t%s\n", $2, $5, $7 }' <<<"$line" >"$JMH_REDIS_BENCH"
		else
			JMH_NOTES+=("redis-benchmark gave no result for the JMH comparison")
		fi
	else
		JMH_NOTES+=("no $LUA_SCRIPT: no redis-benchmark comparison")
	fi
	run_jmh hotkey "$JMH_HOTKEY" 'RedisDecisionBenchmark\.hotKey_t16$' -p strategy=script,bucket4j -bm sample -tu ms
	log "JMH step took $((SECONDS - JMH_STARTED)) s"
fi

# ---------------------------------------------------------------------------------------------------
# report

first_line() { "$@" 2>&1 | sed -n '1p' || true; }
TREE=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ -n "$(git -C "$ROOT" status --porcelain 2>/dev/null | head -n 1)" ]]; then TREE="$TREE + uncommitted changes"; fi

report() {
	echo "ratelimit HTTP load benchmark (bench/run.sh), $NOW"
	echo
	echo "machine: $(nproc) cpus, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(awk '/^MemTotal/ { printf "%.1f GiB RAM", $2 / 1048576 }' /proc/meminfo), load average $LOAD_START at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
	echo "java:    $(first_line java -version)"
	echo "redis:   $(first_line redis-server --version)"
	echo "wrk:     $(first_line wrk -v | sed 's/ Copyright.*//')"
	echo "tree:    $TREE; peer: bucket4j-spring-boot-starter $PEER_VERSION (Bucket4j $PEER_BUCKET4J)"
	echo "run:     wrk -t$THREADS -c$CONNECTIONS -d$DURATION after a $WARMUP warm-up per path, $ROUNDS round(s) alternating the variants, JAVA_OPTS=$JAVA_OPTS"
	echo "         every request from 127.0.0.1: one client address, one hot key"
	echo "paths:   admitted:  GET /v1/status, $ADMITTED_LIMIT per address (tier + backstop), every request 200"
	echo "         saturated: POST /v1/auth/login, 50/1m + 500/1h per address (backstop $ADMITTED_LIMIT), nearly every request 429"
	echo
	awk -F'\t' -v rounds="$ROUNDS" -v variants="$VARIANTS" -v checks="$CHECKS" -v keys="$KEYS" '
		function median(list,    n, a, i, j, t) {
			n = split(list, a, " ")
			if (n == 0) return ""
			for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
			return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		function minof(list,    n, a, i, m) { n = split(list, a, " "); m = a[1] + 0; for (i = 2; i <= n; i++) if (a[i] + 0 < m) m = a[i] + 0; return m }
		function maxof(list,    n, a, i, m) { n = split(list, a, " "); m = a[1] + 0; for (i = 2; i <= n; i++) if (a[i] + 0 > m) m = a[i] + 0; return m }
		BEGIN {
			while ((getline line < checks) > 0) {
				split(line, c, "\t"); k = c[2] SUBSEP c[3]
				wreq[k] += c[4]; w200[k] += c[5]; w429[k] += c[6]; wother[k] += c[7]
			}
			while ((getline line < keys) > 0) {
				split(line, c, "\t"); if (!(c[2] in keytypes)) keytypes[c[2]] = c[3]
			}
		}
		{
			round = $1; v = $2; p = $3; k = v SUBSEP p
			rps[k, round] = $4; p50[k, round] = $5 / 1000; p99[k, round] = $6 / 1000
			req[k] += $7; err[k] += $8; sock[k] += $9
		}
		END {
			nv = split(variants, vs, " ")
			split("admitted saturated", ps, " ")
			for (pi = 1; pi <= 2; pi++) {
				p = ps[pi]
				printf "%-9s %-15s %9s %8s %8s %6s %-13s %8s  %s\n", "path", "variant", "req/s", "p50 ms", "p99 ms", "x off", "(min-max)", "+p99 ms", "statuses"
				for (vi = 1; vi <= nv; vi++) {
					v = vs[vi]; k = v SUBSEP p; o = "off" SUBSEP p
					lr = ""; l50 = ""; l99 = ""; lratio = ""; ldp99 = ""
					for (r = 1; r <= rounds; r++) {
						if (!((k, r) in rps)) continue
						lr = lr " " rps[k, r]; l50 = l50 " " p50[k, r]; l99 = l99 " " p99[k, r]
						if ((o, r) in rps && rps[o, r] > 0) { lratio = lratio " " rps[k, r] / rps[o, r]; ldp99 = ldp99 " " (p99[k, r] - p99[o, r]) }
					}
					if (lr == "") continue
					ratio = (lratio == "") ? "-" : sprintf("%.2f", median(lratio))
					range = (lratio == "" || rounds == 1) ? "" : sprintf("(%.2f-%.2f)", minof(lratio), maxof(lratio))
					dp99 = (ldp99 == "") ? "-" : sprintf("%+.2f", median(ldp99))
					# statuses: warm-up counted per response; measured runs: statuses >= 400 and socket errors
					wk = v SUBSEP p
					share400 = (req[k] > 0) ? err[k] / req[k] : 0
					st = sprintf("warm-up 200:%d 429:%d other:%d; run >=400: %.1f%%", w200[wk], w429[wk], wother[wk], 100 * share400)
					if (sock[k] > 0) st = st sprintf(", socket errors %d", sock[k])
					ok = 1
					if (wother[wk] > 0 || sock[k] > 0) ok = 0
					if (p == "admitted" || v == "off") { if (w429[wk] > 0 || err[k] > 0) ok = 0 }
					else { if (wreq[wk] == 0 || w429[wk] < 0.9 * wreq[wk] || share400 < 0.99) ok = 0 }
					st = st (ok ? "  ok" : "  CHECK")
					if (!ok) problems++
					printf "%-9s %-15s %9.0f %8.2f %8.2f %6s %-13s %8s  %s\n", p, v, median(lr), median(l50), median(l99), ratio, range, dp99, st
					med_ratio[v, p] = (lratio == "") ? "" : median(lratio)
					med_dp99[v, p] = (ldp99 == "") ? "" : median(ldp99)
					med_rps[v, p] = median(lr)
				}
				print ""
			}
			print "x off: req/s over off'"'"'s req/s in the same round, median over the rounds (min-max: their range);"
			print "+p99: p99 minus off'"'"'s p99 in the same round, median. statuses: counted per response in the warm-up;"
			print "share of statuses >= 400 in the measured run (admitted: expect 0%; saturated: ~100%, off: 0%)."
			print ""
			for (vi = 1; vi <= nv; vi++) if (vs[vi] in keytypes) printf "store keys left in Redis by %-15s %s\n", vs[vi] ":", keytypes[vs[vi]]
			if (("redis-script" in keytypes) && keytypes["redis-script"] !~ /hash/) print "  note: redis-script left no hash keys: the script strategy did not run (ratelimit.storage.redis.strategy not supported by this build?)"
			if (("redis-script" in keytypes) && ("redis-bucket4j" in keytypes) && keytypes["redis-script"] == keytypes["redis-bucket4j"]) print "  note: both Redis variants left the same kinds of keys: they probably ran the same strategy"
			if (problems) print "\nCHECK: " problems " row(s) did not answer as expected (admitted: all 200; saturated: nearly all 429); see the statuses column"
			# medians for the targets section
			tf = ENVIRON["TARGETS_FILE"]
			for (key in med_ratio) { split(key, kk, SUBSEP); printf("%s\t%s\tratio\t%s\n", kk[1], kk[2], med_ratio[key]) > tf }
			for (key in med_dp99) { split(key, kk, SUBSEP); printf("%s\t%s\tdp99\t%s\n", kk[1], kk[2], med_dp99[key]) > tf }
			for (key in med_rps) { split(key, kk, SUBSEP); printf("%s\t%s\trps\t%s\n", kk[1], kk[2], med_rps[key]) > tf }
			close(tf)
		}' "$RESULTS"

	echo "Redis reference: redis-benchmark -c $CONNECTIONS -n $REDIS_BENCH_N on the same server"
	awk -F'\t' '{ printf "  %-70s %9.0f req/s  p50 %.2f ms  p99 %.2f ms\n", $1, $2, $3, $4 }' "$REDIS_BENCH"
	[[ -z "$SCRIPT_NOTE" ]] || echo "  note: $SCRIPT_NOTE"
	echo

	echo "Targets (DESIGN.md section 12), admitted path, medians of per-round values vs off:"
	awk -F'\t' -v bench="$REDIS_BENCH" '
		BEGIN { while ((getline line < bench) > 0) { split(line, b, "\t"); if (line ~ /^EVALSHA token-buckets.lua, admitted/) script_rps = b[2] } }
		$2 == "admitted" { val[$1, $3] = $4 }
		function has(v, m) { return ((v, m) in val) && val[v, m] != "" }
		function target(label, value, pass) { printf "  %-56s %-10s %s\n", label, value, pass ? "PASS" : "MISS" }
		END {
			if (has("memory", "ratio")) target("memory: req/s >= 0.90 x off", sprintf("%.2f", val["memory", "ratio"]), val["memory", "ratio"] >= 0.9)
			if (has("redis-script", "ratio")) target("redis-script: req/s >= 0.70 x off", sprintf("%.2f", val["redis-script", "ratio"]), val["redis-script", "ratio"] >= 0.7)
			if (has("memory", "dp99")) target("memory: added p99 < 1 ms", sprintf("%+.2f ms", val["memory", "dp99"]), val["memory", "dp99"] < 1)
			if (has("memory", "rps") && has("peer-memory", "rps") && val["peer-memory", "rps"] > 0)
				target("memory ahead of peer-memory (req/s)", sprintf("%.2fx", val["memory", "rps"] / val["peer-memory", "rps"]), val["memory", "rps"] > val["peer-memory", "rps"])
			if (has("redis-script", "rps") && has("peer-redis", "rps") && val["peer-redis", "rps"] > 0)
				target("redis-script ahead of peer-redis (req/s)", sprintf("%.2fx", val["redis-script", "rps"] / val["peer-redis", "rps"]), val["redis-script", "rps"] > val["peer-redis", "rps"])
			if (has("redis-script", "rps") && script_rps > 0)
				printf "  %-56s %-10s %s\n", "info: redis-script HTTP req/s / redis-benchmark script", sprintf("%.2f", val["redis-script", "rps"] / script_rps), "(whole HTTP request vs bare decision)"
		}' "$TARGETS_FILE"
}

# the JMH step's figures and targets
jmh_report() {
	echo
	if ((!JMH)); then
		echo "Redis decision (JMH): skipped (JMH=0)"
		return 0
	fi
	echo "Redis decision alone (JMH RedisDecisionBenchmark, $JMH_OPTS, on the same Redis after the HTTP runs):"
	awk -v thr="$JMH_THROUGHPUT" -v hot="$JMH_HOTKEY" -v rb="$JMH_REDIS_BENCH" -v t="$JMH_THREADS" -v n="$REDIS_BENCH_N" '
		function unq(x) { gsub(/"/, "", x); return x }
		function target(label, value, pass) { printf "  %-86s %-10s %s\n", label, value, pass ? "PASS" : "MISS" }
		BEGIN {
			jmh_rps = ""; rb_rps = ""
			# JMH writes its CSV with CRLF line ends
			while ((getline line < thr) > 0) {
				sub(/\r$/, "", line); split(line, f, ",")
				if (unq(f[1]) ~ /\.keys10k_t16$/ && unq(f[2]) == "thrpt") { jmh_rps = f[5] + 0; jmh_threads = f[3] + 0 }
			}
			while ((getline line < hot) > 0) {
				sub(/\r$/, "", line); split(line, f, ","); name = unq(f[1]); s = unq(f[8])
				if (name ~ /\.hotKey_t16:p0\.50$/) p50[s] = f[5] + 0
				if (name ~ /\.hotKey_t16:p0\.99$/) p99[s] = f[5] + 0
				if (name ~ /\.hotKey_t16$/ && unq(f[2]) == "sample") { threads[s] = f[3] + 0; samples[s] = f[4] + 0 }
			}
			if ((getline line < rb) > 0) { split(line, b, "\t"); rb_rps = b[2] + 0; rb_p50 = b[3]; rb_p99 = b[4] }
			if (jmh_rps != "") printf "  %-70s %9.0f decisions/s\n", "JMH keys10k, script: 1 check, random key of 10,000, " jmh_threads " threads", jmh_rps
			else printf "  %-70s no result\n", "JMH keys10k, script, " t " threads"
			if (rb_rps != "") printf "  %-70s %9.0f req/s        p50 %.2f ms  p99 %.2f ms\n", "redis-benchmark -c " t " -r 10000 -n " n ": EVALSHA, same KEYS/ARGV shape", rb_rps, rb_p50, rb_p99
			else printf "  %-70s no result\n", "redis-benchmark -c " t ": EVALSHA, same KEYS/ARGV shape"
			split("script bucket4j", strategies, " ")
			for (i = 1; i <= 2; i++) {
				s = strategies[i]
				if (s in p99) printf "  %-70s p50 %.2f ms  p99 %.2f ms  (%d samples)\n", "JMH hotKey, " s ": 1 check, one key for every thread, " threads[s] " threads", p50[s], p99[s], samples[s]
				else printf "  %-70s no result\n", "JMH hotKey, " s ", 16 threads"
			}
			print ""
			print "Targets (DESIGN.md section 12), Redis decision:"
			ratio = (jmh_rps != "" && rb_rps > 0) ? jmh_rps / rb_rps : ""
			target("script decisions/s (JMH, " t " threads) vs redis-benchmark (same script, -c " t ") >= 0.70", (ratio == "") ? "no result" : sprintf("%.2f", ratio), ratio != "" && ratio >= 0.7)
			for (i = 1; i <= 2; i++) {
				s = strategies[i]
				target("hot key, 16 threads: p99 decision < 5 ms (" s ")", (s in p99) ? sprintf("%.2f ms", p99[s]) : "no result", (s in p99) && p99[s] < 5)
			}
		}'
	local note
	for note in "${JMH_NOTES[@]}"; do echo "  note: $note"; done
	return 0
}

export TARGETS_FILE="$WORK/targets.tsv"
: >"$TARGETS_FILE"
REPORT="$WORK/report.txt"
{
	report
	jmh_report
} >"$REPORT"
if ((SAVE)); then
	mkdir -p "$BENCH/results"
	SAVED="$BENCH/results/http-${NOW//:/}.txt"
	cp "$REPORT" "$SAVED"
	log "report saved to ${SAVED#"$ROOT"/}"
fi
cat "$REPORT"
SUCCESS=1
