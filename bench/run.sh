#!/usr/bin/env bash
# HTTP load benchmark: the sample app with the limiter off, in memory, on Redis (script and Bucket4j
# strategies), bucket4j-spring-boot-starter (bench/peer-app) in memory and on Redis, and the floor of any
# one-trip Redis limiter (bench/floor-app: a bare filter making one PING, or one EVALSHA of a single-key
# token bucket, per request), side by side in one run, on loopback, driven by wrk. Three paths: admitted
# with 1000 client addresses (X-Forwarded-For, one per request), admitted from one address (one hot key),
# saturated (every request refused). Each app is measured against its own limiter-off app (the reference:
# off, floor-off for floor-*), which runs through the round beside it: each measured run of a variant is
# cut into short slices, each between two runs of the reference on the same path as long, each slice's
# ratio is its req/s over the mean of those two, and the run's ratio is the median of its slices' (the
# machine's speed drifts within seconds, so only adjacent runs compare). Each warm-up of a path lasts until
# the JVM's JIT is quiet (JIT_QUIET, JIT_MAX). Each Redis variant also counts the app's Redis trips per request (INFO commandstats
# around each measured run, split from what its scripts run by a MONITOR sample in the warm-up). Then
# redis-benchmark runs the limiter's Lua script on the same Redis at the same concurrency, and (unless
# JMH=0) the JMH RedisDecisionBenchmark: script decisions/s at JMH_THREADS threads vs redis-benchmark with
# the same KEYS/ARGV shape at -c JMH_THREADS, and the hot-key p99 of both strategies at 16 threads.
#
# Usage: bench/run.sh [--save] [--no-build]
#   --save       also write the report to bench/results/http-<date>.txt
#   --no-build   build nothing: use the jars already built
# Environment (defaults in brackets):
#   DURATION [10s]: each measured run of a path   ROUNDS [2]   CONNECTIONS [32]   THREADS [2]
#   SLICES [5]: the measured run of a variant is cut into this many wrk runs of whole seconds, each between
#     two runs of its reference as long; its x own-off is the median of the slices' (see interleaved)
#   WARMUP [min(2 x DURATION, 20s)]: the first path's warm-up in each fresh JVM (the JIT needs it)
#   JIT_QUIET [0.1]  JIT_MAX [90]: after WARMUP (PATH_WARMUP on a later path), the warm-up goes on in 5 s
#     steps on the same path while the JVM's JIT compiled (jstat -compiler: Time) more than JIT_QUIET
#     seconds in the last 5 s, for at most JIT_MAX seconds more (a fresh JVM of the sample app compiles for
#     30-35 s of load on a fast machine, 60-90 s on a slow one); JIT_MAX=0: never
#   PATH_WARMUP [min(DURATION, 5s)]: the warm-up of each later path in the same JVM
#   MANY_KEYS [1000]: client addresses of the admitted-many path
#   VARIANTS ["off memory redis-script redis-script-nohot redis-script-one redis-bucket4j peer-memory peer-redis
#     floor-off floor-ping floor-script"]; redis-script-nohot is redis-script with reserves for hot buckets
#     switched off (--ratelimit.storage.redis.hot-keys.max-tokens=0), to show what they save;
#     redis-script-one is redis-script checking one bucket per request (bench/sample-one-bucket.yml: the
#     tier limit, no per-address backstop), like floor-script. Not in the default list: floor-headers, the
#     floor app sending the sample's rate-limit headers as fixed bytes and deciding nothing (what the
#     headers cost on the wire and in wrk), and floor-memory, the floor app taking one token from each of
#     two Bucket4j local buckets of the address in a Caffeine map (the cheapest in-memory limiter of the
#     sample's two limits, without headers). The references a subset needs (off, floor-off) run whether
#     listed or not
#   JAVA_OPTS [-Xms512m -Xmx512m]  START_TIMEOUT [60] (seconds)  REDIS_BENCH_N [20000 x DURATION s]
#   SAMPLE_JAR, PEER_JAR, FLOOR_JAR: use these jars instead of building the sample app, the peer app, the
#     floor app (built to sample-app/target/sample-app.jar, bench/peer-app/target/peer-app.jar,
#     bench/floor-app/target/floor-app.jar)
#   KEEP_LOGS [0]: 1 keeps the app, wrk, MONITOR and Redis logs (always kept when the run fails, or when
#     the sample app's store failed)
#   JMH [1]: 0 skips the JMH step   JMH_THREADS [16]   JMH_OPTS [-f 1 -wi 2 -w 3s -i 3 -r 3s]
#   BENCH_JAR: use this JMH jar instead of building it (built to bench/target/benchmarks.jar)
# The default run takes about 35-40 minutes on 2 cores (builds included; more on a slow machine, where
# the JITs take longer to settle); it prints its estimate first. Per variant and round: about 10 s to
# start, WARMUP + about 2 x DURATION on the first path, PATH_WARMUP + about 2 x DURATION on each later
# path (its slices and the reference's around them, one more; the floor apps and redis-script-one run the
# two admitted paths only), each
# warm-up plus the JIT's 0 to JIT_MAX;
# per round, the references' start and warm-ups, and DURATION per path for off and floor-off themselves;
# then redis-benchmark and JMH.
# Quick smoke run (about 7 minutes on an idle machine, builds excluded; with 2 s warm-ups the JIT is never
# quiet, hence a short JIT_MAX): DURATION=2s ROUNDS=1 JMH=0 JIT_MAX=10 bench/run.sh
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
SLICES=${SLICES:-5}
CONNECTIONS=${CONNECTIONS:-32}
THREADS=${THREADS:-2}
VARIANTS=${VARIANTS:-"off memory redis-script redis-script-nohot redis-script-one redis-bucket4j peer-memory peer-redis floor-off floor-ping floor-script"}
MANY_KEYS=${MANY_KEYS:-1000}
JAVA_OPTS=${JAVA_OPTS:-"-Xms512m -Xmx512m"}
START_TIMEOUT=${START_TIMEOUT:-60}
BUILD_SAMPLE=1
BUILD_PEER=1
BUILD_FLOOR=1
if [[ -n "${SAMPLE_JAR:-}" ]]; then BUILD_SAMPLE=0; fi
if [[ -n "${PEER_JAR:-}" ]]; then BUILD_PEER=0; fi
if [[ -n "${FLOOR_JAR:-}" ]]; then BUILD_FLOOR=0; fi
SAMPLE_JAR=${SAMPLE_JAR:-"$ROOT/sample-app/target/sample-app.jar"}
PEER_JAR=${PEER_JAR:-"$BENCH/peer-app/target/peer-app.jar"}
FLOOR_JAR=${FLOOR_JAR:-"$BENCH/floor-app/target/floor-app.jar"}
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

# the limits of the paths (the peer app's application.yml has the same ones)
ADMITTED_LIMIT="1000000000/1m"
SAMPLE_ARGS=(--ratelimit.tiers.anonymous.ip.default="$ADMITTED_LIMIT" --ratelimit.ip.default="$ADMITTED_LIMIT")
# redis-script-one's whole configuration (instead of application.yml and application-redis.yml): the
# sample's backstop is an entry of a map, which no command-line property removes
ONE_BUCKET_YML="$BENCH/sample-one-bucket.yml"

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
[[ "$SLICES" =~ ^[0-9]+$ && "$SLICES" -gt 0 ]] || die "SLICES must be a positive integer (got '$SLICES')"
# whole seconds per slice: DURATION cut into SLICES, fewer when it is shorter than SLICES seconds
SLICE_COUNT=$((SLICES < DURATION_S ? SLICES : DURATION_S))
SLICE_S=$((DURATION_S / SLICE_COUNT))
[[ "$ROUNDS" =~ ^[0-9]+$ && "$ROUNDS" -gt 0 ]] || die "ROUNDS must be a positive integer (got '$ROUNDS')"
[[ "$CONNECTIONS" =~ ^[0-9]+$ && "$CONNECTIONS" -gt 0 ]] || die "CONNECTIONS must be a positive integer"
[[ "$MANY_KEYS" =~ ^[0-9]+$ && "$MANY_KEYS" -gt 1 && "$MANY_KEYS" -le 64000 ]] || die "MANY_KEYS must be 2 to 64000 (got '$MANY_KEYS')"
# the last address wrk-report.lua sends (198.18.0.1 ... 198.18.0.250, 198.18.1.1 ...)
LAST_ADDRESS="198.18.$(((MANY_KEYS - 1) / 250)).$(((MANY_KEYS - 1) % 250 + 1))"
[[ "$JMH" == 0 || "$JMH" == 1 ]] || die "JMH must be 0 or 1 (got '$JMH')"
[[ "$JMH_THREADS" =~ ^[0-9]+$ && "$JMH_THREADS" -gt 0 ]] || die "JMH_THREADS must be a positive integer"
if [[ -z "${WARMUP:-}" ]]; then
	# every variant is a fresh JVM: the JIT needs 20-30 s of load before figures settle (measured: the
	# Redis variant served 10k req/s 5 s in and 25k after a minute), so warm up for twice the run, at most 20 s
	if ((DURATION_S < 5)); then WARMUP="${DURATION_S}s"; elif ((DURATION_S * 2 < 20)); then WARMUP="$((DURATION_S * 2))s"; else WARMUP="20s"; fi
fi
WARMUP_S=$(seconds_of "$WARMUP")
[[ "$WARMUP_S" =~ ^[0-9]+$ && "$WARMUP_S" -gt 0 ]] || die "WARMUP must look like 20s (got '$WARMUP')"
if [[ -z "${PATH_WARMUP:-}" ]]; then
	# the JVM is warm after the first path: each later path needs only its own code compiled
	if ((DURATION_S < 5)); then PATH_WARMUP="${DURATION_S}s"; else PATH_WARMUP="5s"; fi
fi
PATH_WARMUP_S=$(seconds_of "$PATH_WARMUP")
[[ "$PATH_WARMUP_S" =~ ^[0-9]+$ && "$PATH_WARMUP_S" -gt 0 ]] || die "PATH_WARMUP must look like 5s (got '$PATH_WARMUP')"
# a fresh JVM of the sample app with the limiter on keeps C2 busy for 30-35 s of load (off: about 20 s),
# longer than WARMUP: the first measured path would partly measure compilation, and a later path the
# code only it runs (a refusal's). So each path's warm-up goes on in JIT_STEP_S steps until the JIT is
# quiet (see warm_path)
JIT_QUIET=${JIT_QUIET:-0.1}
JIT_MAX=${JIT_MAX:-90}
JIT_STEP_S=5
[[ "$JIT_QUIET" =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "JIT_QUIET must be seconds, like 0.1 (got '$JIT_QUIET')"
JIT_MAX_S=$(seconds_of "$JIT_MAX")
[[ "$JIT_MAX_S" =~ ^[0-9]+$ ]] || die "JIT_MAX must be seconds, like 40 (got '$JIT_MAX')"
REDIS_BENCH_N=${REDIS_BENCH_N:-$((DURATION_S < 1 ? 20000 : DURATION_S * 20000))}
for variant in $VARIANTS; do
	case "$variant" in
		off | memory | redis-script | redis-script-nohot | redis-script-one | redis-bucket4j | peer-memory | peer-redis) ;;
		floor-off | floor-headers | floor-ping | floor-script | floor-memory) ;;
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
# jstat (a JDK tool) reads the JIT's compile time for the JIT-settled warm-up; without it, WARMUP alone
JIT_ON=1
if ((JIT_MAX_S == 0)); then
	JIT_ON=0
elif ! command -v jstat >/dev/null; then
	JIT_ON=0
	log "no jstat (a JDK tool): the warm-ups are not extended until the JIT is quiet, WARMUP alone"
fi
JIT_NOTE="" # why a JVM's warm-up was not extended, said once
if ((BUILD)); then command -v mvn >/dev/null || die "mvn not found"; fi

# ---------------------------------------------------------------------------------------------------
# processes: everything started here is stopped on exit, by its pid

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ratelimit-bench.XXXXXX")
APP_PID=""
APP_LOG=""
REDIS_PID=""
MONITOR_PID=""
JIT_MARK_PID=""
# the round's reference apps (off, floor-off), up through the round: pid, port, log by name
declare -A REF_PID=() REF_PORT=() REF_LOG=()
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

stop_refs() {
	local ref
	for ref in "${!REF_PID[@]}"; do stop_pid "${REF_PID[$ref]}"; done
	REF_PID=()
	REF_PORT=()
	REF_LOG=()
}

cleanup() {
	local status=$?
	stop_pid "$MONITOR_PID"
	stop_pid "$JIT_MARK_PID"
	stop_pid "$APP_PID"
	APP_PID=""
	stop_refs
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
# the peer and floor apps only when a variant runs them
NEEDS_PEER=0
NEEDS_FLOOR=0
for variant in $VARIANTS; do
	case "$variant" in
		peer-*) NEEDS_PEER=1 ;;
		floor-*) NEEDS_FLOOR=1 ;;
	esac
done
if ((BUILD && BUILD_PEER && NEEDS_PEER)); then
	log "building the peer app (bench/peer-app)"
	mvn -B -q -f "$BENCH/peer-app/pom.xml" -DskipTests package >&2 || die "the peer app does not build"
fi
if ((BUILD && BUILD_FLOOR && NEEDS_FLOOR)); then
	log "building the floor app (bench/floor-app)"
	mvn -B -q -f "$BENCH/floor-app/pom.xml" -DskipTests package >&2 || die "the floor app does not build"
fi
[[ -f "$SAMPLE_JAR" ]] || die "no sample app jar at $SAMPLE_JAR (run without --no-build)"
if ((NEEDS_PEER)); then [[ -f "$PEER_JAR" ]] || die "no peer app jar at $PEER_JAR (run without --no-build)"; fi
if ((NEEDS_FLOOR)); then [[ -f "$FLOOR_JAR" ]] || die "no floor app jar at $FLOOR_JAR (run without --no-build)"; fi
if ((JMH)); then [[ -f "$BENCH_JAR" ]] || die "no JMH jar at $BENCH_JAR (run without --no-build, or JMH=0)"; fi
if [[ " $VARIANTS " == *" redis-script-one "* ]]; then [[ -f "$ONE_BUCKET_YML" ]] || die "no $ONE_BUCKET_YML"; fi

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

uses_redis() { [[ "$1" == redis-* || "$1" == peer-redis || "$1" == floor-ping || "$1" == floor-script ]]; }
# the limiter-off app each variant is measured against (its reference): its own app's
baseline_of() { if [[ "$1" == floor-* ]]; then echo floor-off; else echo off; fi; }
is_ref() { [[ "$1" == off || "$1" == floor-off ]]; }

# the lines of the app's log saying that the limiter's store failed: the sample app then decides in its
# failure mode (locally, or admitting or refusing everything) and its figures are not those of Redis
STORE_FAILED='Rate-limit store failed|circuit breaker open'
store_failures() { grep -c -E "$STORE_FAILED" "$APP_LOG" 2>/dev/null || true; }
# 1 while the sample app's circuit breaker is open (its last word on it), else 0
breaker_open() {
	if grep -E 'circuit breaker (open|closed)' "$APP_LOG" 2>/dev/null | tail -n 1 | grep -q 'circuit breaker open'; then
		echo 1
	else
		echo 0
	fi
}

# start_app VARIANT PORT: starts the variant, waits until it answers (bounded), sets APP_PID and APP_LOG.
# APP_PID is the JVM's own pid (jstat reads it): bash forks for the background command and execs env, which
# execs java
start_app() {
	local variant=$1 port=$2 jar args=() env=(-u REDIS_URL)
	case "$variant" in
		off) jar=$SAMPLE_JAR args=(--ratelimit.enabled=false) ;;
		memory) jar=$SAMPLE_JAR args=("${SAMPLE_ARGS[@]}") ;;
		redis-script)
			jar=$SAMPLE_JAR env=(REDIS_URL="$REDIS_URL")
			args=(--spring.profiles.active=redis --ratelimit.storage.redis.strategy=script "${SAMPLE_ARGS[@]}")
			;;
		redis-script-nohot)
			# needs a build with hot-key token reserves and their switch (see --help)
			jar=$SAMPLE_JAR env=(REDIS_URL="$REDIS_URL")
			args=(--spring.profiles.active=redis --ratelimit.storage.redis.strategy=script
				--ratelimit.storage.redis.hot-keys.max-tokens=0 "${SAMPLE_ARGS[@]}")
			;;
		redis-script-one)
			# one bucket per request like floor-script: the tier's, no backstop (see sample-one-bucket.yml)
			jar=$SAMPLE_JAR env=(REDIS_URL="$REDIS_URL") args=(--spring.config.location="file:$ONE_BUCKET_YML")
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
		# the floor app connects to our Redis in every mode (off makes no trip), so its beans are the same
		floor-*) jar=$FLOOR_JAR env=(REDIS_URL="$REDIS_URL") args=(--floor.mode="${variant#floor-}") ;;
	esac
	local logfile="$WORK/app-$variant-$ROUND.log"
	APP_LOG=$logfile
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

# run_wrk NAME PATH DURATION METHOD URL ADDRESSES COUNT_STATUS: prints the WRK_RESULT fields (NAME: of
# the log file, wrk-ROUND-NAME-PATH-COUNT_STATUS.log)
run_wrk() {
	local name=$1 path=$2 duration=$3 method=$4 url=$5 addresses=$6 count=$7 out
	out="$WORK/wrk-$ROUND-$name-$path-$count.log"
	WRK_METHOD=$method WRK_ADDRESSES=$addresses WRK_COUNT_STATUS=$count timeout "$(($(seconds_of "$duration") + 60))" \
		wrk -t"$THREADS" -c"$CONNECTIONS" -d"$duration" -s "$BENCH/wrk-report.lua" "$url" >"$out" 2>&1 ||
		die "wrk failed on $url (log: $out)"
	grep '^WRK_RESULT ' "$out" | tail -n 1 | sed 's/^WRK_RESULT //' || die "no result from wrk (log: $out)"
}

# interleaved VARIANT REF PATH METHOD URL REF_URL ADDRESSES: the measured run of a variant, cut into
# SLICE_COUNT slices of SLICE_S seconds, each between two slices of its reference on the same path (ref,
# variant, ref, ..., ref); each slice's ratio is the variant's req/s over the mean of the reference's right
# before and after it, and the run's ratio is the median of them. The machine's speed drifts within seconds
# by more than the limiter costs (2 s slices of the same pair of apps ranged 0.80-1.23 on one machine): one
# long run between two long reference runs gave one such draw per round, a median of several short ones
# is steadier. Prints the WRK_RESULT fields of the variant's slices together (requests and errors summed,
# req/s over their whole time, p50 and p99 the median of the slices'), then ratio, ref_rps (the
# reference's req/s over its slices), ref_p99_us (the median of its slices'), slices, slice_ratios,
# ref_slices (req/s, comma-separated) and ref_errors (statuses >= 400 and socket errors)
interleaved() {
	local variant=$1 ref=$2 path=$3 method=$4 url=$5 ref_url=$6 addresses=$7 i lines="" before after r
	before=$(run_wrk "$ref-before-$variant" "$path" "${SLICE_S}s" "$method" "$ref_url" "$addresses" 0)
	for ((i = 1; i <= SLICE_COUNT; i++)); do
		r=$(run_wrk "$variant-$i" "$path" "${SLICE_S}s" "$method" "$url" "$addresses" 0)
		after=$(run_wrk "$ref-after-$variant-$i" "$path" "${SLICE_S}s" "$method" "$ref_url" "$addresses" 0)
		lines+="V $r"$'\n'
		((i > 1)) || lines+="R $before"$'\n'
		lines+="R $after"$'\n'
	done
	awk '
		function median(list,    n, a, i, j, t) {
			n = split(list, a, ",")
			for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
			return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		function add(list, x) { return (list == "") ? x : list "," x }
		NF < 2 { next }
		{
			delete f
			for (i = 2; i <= NF; i++) { eq = index($i, "="); f[substr($i, 1, eq - 1)] = substr($i, eq + 1) }
			if ($1 == "V") {
				nv++; vrps[nv] = f["rps"]; req += f["requests"]; dur += f["duration_us"]
				serr += f["status_errors"]; sockerr += f["socket_errors"]
				p50s = add(p50s, f["p50_us"]); p99s = add(p99s, f["p99_us"])
			} else {
				nr++; rrps[nr] = f["rps"]; rreq += f["requests"]; rdur += f["duration_us"]
				rerr += f["status_errors"] + f["socket_errors"]; rp99s = add(rp99s, f["p99_us"])
				refs = add(refs, sprintf("%.0f", f["rps"]))
			}
		}
		END {
			# a slice whose reference answered nothing has no ratio (not 0); none at all: "-", and the
			# report falls back to the reference row of the round
			for (i = 1; i <= nv; i++) {
				mean = (rrps[i] + rrps[i + 1]) / 2
				if (mean > 0) ratios = add(ratios, sprintf("%.3f", vrps[i] / mean))
			}
			ratio = (ratios == "") ? "-" : sprintf("%.3f", median(ratios))
			printf "requests=%d duration_us=%d rps=%.1f p50_us=%.0f p99_us=%.0f status_errors=%d socket_errors=%d", req, dur, (dur > 0) ? req * 1e6 / dur : 0, median(p50s), median(p99s), serr, sockerr
			printf " ratio=%s ref_rps=%.1f ref_p99_us=%.0f slices=%d slice_ratios=%s ref_slices=%s ref_errors=%d\n", ratio, (rdur > 0) ? rreq * 1e6 / rdur : 0, median(rp99s), nv, (ratios == "") ? "-" : ratios, refs, rerr
		}' <<<"$lines"
}

field() { # field NAME "k=v k=v ...": the value of k
	local name=$1 kv
	for kv in $2; do
		[[ "${kv%%=*}" == "$name" ]] && { echo "${kv#*=}"; return 0; }
	done
	echo 0
}

# the kinds of store keys a Redis variant left (hash: our script and the floor's; string: Bucket4j's CAS)
key_types() {
	local key types=""
	while IFS= read -r key; do
		[[ -n "$key" ]] || continue
		types+="$(rcli type "$key") "
	done < <(rcli --scan | head -n 20)
	echo "$types" | tr ' ' '\n' | sed '/^$/d' | sort | uniq -c | awk '{printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1}'
}

# Redis commands per request. INFO commandstats counts the commands a Lua script runs (redis.call) as
# well as the clients' own, and so do total_commands_processed and the slow log; MONITOR tells them apart
# ("[0 lua]") but slows Redis down. So: commandstats before and after each measured run, and a 1 s
# MONITOR sample taken in the warm-up before it gives, per command, the share that clients sent (a command
# absent from the sample counts as a client's). trips = the clients' commands: EVALSHA and EVAL (never run
# by a script), PING, other; in scripts = the rest.

# command_stats FILE: "name calls" per command (INFO and MONITOR left out: the benchmark's own)
command_stats() {
	rcli info commandstats | tr -d '\r' | awk -F'[:,=]' '
		/^cmdstat_/ { name = $1; sub(/^cmdstat_/, "", name); if (name != "info" && name != "monitor") print name, $3 }' >"$1"
}

# start_monitor FILE DELAY: after DELAY seconds, records 1 s of MONITOR in the background (MONITOR_PID)
start_monitor() {
	local file=$1 delay=$2
	: >"$file"
	(
		sleep "$delay"
		timeout 1 redis-cli -h 127.0.0.1 -p "$REDIS_PORT" monitor >"$file" 2>/dev/null || true
	) &
	MONITOR_PID=$!
}

# command_trips BEFORE AFTER SAMPLE: "evalsha eval ping other trips in-scripts keys unsampled", the
# commands between two command_stats, split by the MONITOR sample's shares; keys: how many keys the sample
# touched (an EVAL's KEYS, the first argument of other commands but PING), which shows that the load's
# client addresses reached the store as keys; unsampled: commands counted as trips for want of a sample
command_trips() {
	awk -v before="$1" -v sample="$3" '
		BEGIN {
			while ((getline line < before) > 0) { split(line, f, " "); was[f[1]] = f[2] }
			# 1795664628.123456 [0 127.0.0.1:47142] "evalsha" "..." ...  or  ... [0 lua] "hmget" ...
			while ((getline line < sample) > 0) {
				n = split(line, f, " ")
				if (n < 4) continue
				name = tolower(f[4]); gsub(/"/, "", name)
				if (f[3] == "lua]") inlua[name]++; else sent[name]++
				if (name ~ /^eval/) { nk = f[6]; gsub(/"/, "", nk); for (i = 7; i < 7 + nk && i <= n; i++) keys[f[i]] = 1 }
				else if (name != "ping" && n >= 5) keys[f[5]] = 1
			}
		}
		{
			name = $1; calls = $2 - ((name in was) ? was[name] : 0)
			if (calls <= 0) next
			base = name; sub(/\|.*/, "", base)   # client|setinfo: MONITOR shows "client" "setinfo"
			seen = sent[base] + inlua[base]
			mine = (seen > 0) ? calls * sent[base] / seen : calls
			if (seen == 0 && name !~ /^(evalsha|eval|evalsha_ro|eval_ro)$/) unsampled += calls
			if (name == "evalsha" || name == "evalsha_ro") evalsha += mine
			else if (name == "eval" || name == "eval_ro") eval += mine
			else if (name == "ping") ping += mine
			else other += mine
			trips += mine; scripts += calls - mine
		}
		END { nkeys = 0; for (k in keys) nkeys++; printf "%d %d %d %d %d %d %d %d\n", evalsha, eval, ping, other, trips, scripts, nkeys, unsampled }' "$2"
}

RESULTS="$WORK/results.tsv" # round variant path rps p50_us p99_us requests status_errors socket_errors
#                             evalsha eval ping other trips in-scripts keys (Redis commands during the
#                             measured run and keys in the warm-up's sample, see command_trips; - without Redis)
#                             store-failures (lines of the app's log in the run, +1 when its breaker was open
#                             at the start) unsampled (commands counted as trips that the MONITOR sample missed)
#                             ref_rps ref_p99_us ratio (the reference's req/s over its slices interleaved with the
#                             variant's, the median of their p99s, the median of the slices' ratios; see
#                             interleaved; - for the references themselves)
CHECKS="$WORK/checks.tsv" # round variant path requests s200 s429 sother (warm-up, counted)
KEYS="$WORK/keys.tsv"     # round variant key-summary
JITS="$WORK/jit.tsv"      # round name extra-seconds settled (1: the JIT was quiet; 0: JIT_MAX reached; -: not read)
: >"$RESULTS"
: >"$CHECKS"
: >"$KEYS"
: >"$JITS"

# name method uri addresses (X-Forwarded-For: 0 none, 1 one fixed address, N rotating). Saturated last:
# its refusals may ban 127.0.0.1 (the sample app bans after 20 refusals a minute)
PATHS=("admitted-many GET /v1/status $MANY_KEYS" "admitted-hot GET /v1/status 1" "saturated POST /v1/auth/login 0")
# the floor apps refuse nothing: the admitted paths only; redis-script-one is compared with floor-script
# on them only
paths_of() { if [[ "$1" == floor-* || "$1" == redis-script-one ]]; then echo 2; else echo 3; fi; }

# the references the variants need, in the order first needed, and how many paths each runs: the most of
# the variants it serves (off: 3; 2 when it serves only redis-script-one)
REFS=""
declare -A REF_PATHS=()
for variant in $VARIANTS; do
	ref=$(baseline_of "$variant")
	np=$(paths_of "$variant")
	if [[ -z "${REF_PATHS[$ref]:-}" ]]; then
		REFS="${REFS:+$REFS }$ref"
		REF_PATHS[$ref]=0
	fi
	((np <= REF_PATHS[$ref])) || REF_PATHS[$ref]=$np
done

# jit_seconds PID: the JVM's cumulative JIT compile time, in seconds (jstat -compiler prints Compiled
# Failed Invalid Time FailedType FailedMethod); fails when jstat cannot read it (or takes over 30 s: it
# starts a JVM of its own)
jit_seconds() {
	LC_ALL=C timeout 30 jstat -compiler "$1" 2>/dev/null | awk '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == "Time") col = i }
		NR == 2 && col { t = $col; sub(/,/, ".", t); if (t ~ /^[0-9]+(\.[0-9]+)?$/) { print t; found = 1 } }
		END { exit !found }'
}

# jit_mark PID FILE DELAY: after DELAY seconds, the JVM's compile time into FILE, in the background
# (JIT_MARK_PID); FILE stays empty when jstat could not read it
jit_mark() {
	local pid=$1 file=$2 delay=$3
	: >"$file"
	(
		sleep "$delay"
		jit_seconds "$pid" >"$file" || true
	) &
	JIT_MARK_PID=$!
}

above() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'; } # above A B: A > B (decimals)

# warm_path NAME PID PORT PATH-INDEX: the warm-up of one path in the JVM PID of NAME (a variant or a
# reference). wrk counts every response's status (into CHECKS): the admitted paths must answer 200, the
# saturated one 429 once its 50 tokens are gone. WARMUP on the first path, PATH_WARMUP on later ones; a
# Redis variant's MONITOR sample is taken near its end (see command_trips). On every path the warm-up
# then goes on, uncounted, in JIT_STEP_S steps while the JIT compiled more than JIT_QUIET s in the last
# step (the first time: in the warm-up's last JIT_STEP_S seconds), at most JIT_MAX s more (into JITS): a
# later path runs code the first did not (a refusal's body), which a slow machine had not compiled within
# PATH_WARMUP (measured: the saturated path at 0.62 of off after 5 s, at 0.98 of it once compiled)
warm_path() {
	local name=$1 pid=$2 port=$3 pi=$4 path method uri addresses url warmup w r
	read -r path method uri addresses <<<"${PATHS[$pi]}"
	url="http://127.0.0.1:$port$uri"
	warmup=$PATH_WARMUP
	((pi > 0)) || warmup=$WARMUP
	w=$(seconds_of "$warmup")
	local sample="$WORK/monitor-$ROUND-$name-$path.log" mark="$WORK/jit-$ROUND-$name-$path.mark" jit=0
	if uses_redis "$name"; then
		# 1 s ending half a second before the warm-up does
		if ((w >= 2)); then start_monitor "$sample" "$((w - 2)).5"; else start_monitor "$sample" 0; fi
	fi
	if ((JIT_ON)); then
		jit=1
		jit_mark "$pid" "$mark" "$((w > JIT_STEP_S ? w - JIT_STEP_S : 0))"
	fi
	r=$(run_wrk "$name" "$path" "$warmup" "$method" "$url" "$addresses" 1)
	if [[ -n "$MONITOR_PID" ]]; then
		wait "$MONITOR_PID" 2>/dev/null || true
		MONITOR_PID=""
	fi
	if [[ -n "$JIT_MARK_PID" ]]; then
		wait "$JIT_MARK_PID" 2>/dev/null || true
		JIT_MARK_PID=""
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$ROUND" "$name" "$path" "$(field requests "$r")" \
		"$(field s200 "$r")" "$(field s429 "$r")" "$(field sother "$r")" >>"$CHECKS"
	((jit)) || return 0

	local before after extra=0 step settled
	before=$(<"$mark")
	after=$(jit_seconds "$pid") || after=""
	if [[ -z "$before" || -z "$after" ]]; then
		if [[ -z "$JIT_NOTE" ]]; then
			JIT_NOTE="jstat -compiler gave no compile time for $name (pid $pid, $(cat "/proc/$pid/comm" 2>/dev/null || echo gone))"
			log "  $JIT_NOTE: its warm-up is not extended (said once)"
		fi
		printf '%s\t%s\t0\t-\n' "$ROUND" "$name" >>"$JITS"
		return 0
	fi
	settled=1
	while above "$(awk -v a="$after" -v b="$before" 'BEGIN { print a - b }')" "$JIT_QUIET"; do
		if ((extra >= JIT_MAX_S)); then
			settled=0
			break
		fi
		step=$((JIT_MAX_S - extra < JIT_STEP_S ? JIT_MAX_S - extra : JIT_STEP_S))
		run_wrk "$name-jit" "$path" "${step}s" "$method" "$url" "$addresses" 0 >/dev/null
		extra=$((extra + step))
		before=$after
		if ! after=$(jit_seconds "$pid"); then
			log "  jstat -compiler $pid failed: $name's $path warm-up stops after $extra s more"
			settled=-
			break
		fi
	done
	local still=""
	[[ "$settled" != 0 ]] || still="; still compiling at JIT_MAX"
	log "  $name $path: warm-up extended by $extra s ($(awk -v a="$after" -v b="$before" 'BEGIN { printf "%.2f", a - b }') s of JIT compilation in the last step, $after s in all$still)"
	printf '%s\t%s\t%s\t%s\n' "$ROUND" "$name" "$extra" "$settled" >>"$JITS"
}

# an estimate: per reference and round, start-up (about 10 s on 2 cores), the first path's warm-up and a
# short one on each later path; per variant, the same (but for the references, already warm) and, per
# path, its slices and the reference's around them (the references themselves: their run only); a second
# to stop each JVM. The JIT-settled warm-ups add 0 to JIT_MAX s per path of each JVM
estimate=0
jvms=0
warmups=0
for ref in $REFS; do
	estimate=$((estimate + 11 + WARMUP_S + (REF_PATHS[$ref] - 1) * PATH_WARMUP_S))
	jvms=$((jvms + 1))
	warmups=$((warmups + REF_PATHS[$ref]))
done
for variant in $VARIANTS; do
	np=$(paths_of "$variant")
	if is_ref "$variant"; then
		estimate=$((estimate + np * DURATION_S))
	else
		estimate=$((estimate + 11 + WARMUP_S + np * (2 * SLICE_COUNT + 1) * SLICE_S + (np - 1) * PATH_WARMUP_S))
		jvms=$((jvms + 1))
		warmups=$((warmups + np))
	fi
done
estimate=$((estimate * ROUNDS + 3 * REDIS_BENCH_N / 40000 + (JMH ? 100 : 0)))
jit_most=$((JIT_ON ? warmups * ROUNDS * JIT_MAX_S : 0))
runs=$((ROUNDS * $(wc -w <<<"$VARIANTS")))
log "$runs runs: ${ROUNDS} round(s) x [$VARIANTS], wrk -t$THREADS -c$CONNECTIONS; per JVM a $WARMUP warm-up on the first path, $PATH_WARMUP on each later one, $DURATION measured per path in $SLICE_COUNT slices of ${SLICE_S}s, each between two of its reference's ($REFS: up through each round)"
if ((JIT_ON)); then
	log "estimated time from here: about $(((estimate + 59) / 60)) minutes, and up to $(((jit_most + 59) / 60)) more while the JITs settle ($warmups warm-ups of $jvms JVMs a round, at most ${JIT_MAX_S}s each)"
else
	log "estimated time from here: about $(((estimate + 59) / 60)) minutes"
fi
# ratios measured on a machine something else keeps busy say little (a run beside a test suite once put
# the limiter at half its idle-machine ratio): the share of CPU idle over 3 s before the first run
cpu_idle_percent() {
	local a b
	read -r -a a < <(grep '^cpu ' /proc/stat)
	sleep 3
	read -r -a b < <(grep '^cpu ' /proc/stat)
	local total=0 i
	for ((i = 1; i < ${#a[@]}; i++)); do total=$((total + b[i] - a[i])); done
	echo $((total > 0 ? 100 * (b[4] + b[5] - a[4] - a[5]) / total : 0))
}
IDLE_BEFORE=$(cpu_idle_percent)
((IDLE_BEFORE >= 90)) || log "WARNING: only ${IDLE_BEFORE}% of the CPU was idle before the runs: something else is busy, the ratios will not be trustworthy"
run=0
for ((ROUND = 1; ROUND <= ROUNDS; ROUND++)); do
	# the machine's speed drifts by 15-25% over minutes: a reference measured minutes away from a variant
	# put one run's ratios at 0.71-0.99, side by side they hold within a few percent. So the references
	# (off; floor-off for floor-*) start first, each warmed up once on each of its paths, and stay up
	# through the round: each variant's run of a path is followed by the reference's
	for ref in $REFS; do
		port=$(free_port)
		log "round $ROUND: reference $ref on port $port, up through the round"
		start_app "$ref" "$port"
		REF_PID[$ref]=$APP_PID
		REF_PORT[$ref]=$port
		REF_LOG[$ref]=$APP_LOG
		APP_PID=""
		for ((pi = 0; pi < REF_PATHS[$ref]; pi++)); do
			warm_path "$ref" "${REF_PID[$ref]}" "$port" "$pi"
		done
	done
	for VARIANT in $VARIANTS; do
		run=$((run + 1))
		ref=$(baseline_of "$VARIANT")
		if is_ref "$VARIANT"; then
			# a reference is its own: measure the instance already up and warm
			port=${REF_PORT[$VARIANT]}
			APP_LOG=${REF_LOG[$VARIANT]}
			log "run $run/$runs: round $ROUND, $VARIANT on port $port (the round's reference, warmed up)"
		else
			if uses_redis "$VARIANT"; then rcli flushall >/dev/null; fi
			port=$(free_port)
			log "run $run/$runs: round $ROUND, $VARIANT on port $port"
			start_app "$VARIANT" "$port"
		fi
		for ((pi = 0; pi < $(paths_of "$VARIANT"); pi++)); do
			read -r path method uri addresses <<<"${PATHS[$pi]}"
			url="http://127.0.0.1:$port$uri"
			sample="$WORK/monitor-$ROUND-$VARIANT-$path.log"
			warmup_failures=$(store_failures)
			if ! is_ref "$VARIANT"; then warm_path "$VARIANT" "$APP_PID" "$port" "$pi"; fi
			# the measured run, with the Redis commands it cost
			calls="- - - - - - - -"
			# a store that failed in the warm-up and is back does not count against the run; one that
			# fails in it, or whose breaker is still open when it starts, does
			warmup_failures=$(($(store_failures) - warmup_failures))
			failures_before=$(store_failures)
			failures_open=$(breaker_open)
			# interleaved with the reference on the same path (see interleaved); the references never use
			# Redis, so the commandstats around the whole count the variant's trips alone
			ref_rps="-"
			ref_p99="-"
			ref_ratio="-"
			ref_note=""
			if is_ref "$VARIANT"; then
				r=$(run_wrk "$VARIANT" "$path" "$DURATION" "$method" "$url" "$addresses" 0)
			else
				if uses_redis "$VARIANT"; then command_stats "$WORK/commands-before"; fi
				r=$(interleaved "$VARIANT" "$ref" "$path" "$method" "$url" "http://127.0.0.1:${REF_PORT[$ref]}$uri" "$addresses")
				if uses_redis "$VARIANT"; then
					command_stats "$WORK/commands-after"
					calls=$(command_trips "$WORK/commands-before" "$WORK/commands-after" "$sample")
				fi
				ref_rps=$(field ref_rps "$r")
				ref_p99=$(field ref_p99_us "$r")
				ref_ratio=$(field ratio "$r")
				ref_note="; $ref between its slices: $(field ref_slices "$r") req/s, x $ref_ratio (median of $(field slices "$r") slices: $(field slice_ratios "$r"))"
				if (($(field ref_errors "$r") > 0)); then
					log "  WARNING: the reference $ref answered $(field ref_errors "$r") statuses >= 400 or socket errors on $path"
				fi
			fi
			read -r c_evalsha c_eval c_ping c_other c_trips c_scripts c_keys c_unsampled <<<"$calls"
			failures=$(($(store_failures) - failures_before + failures_open))
			if ((warmup_failures > 0 || failures > 0)); then
				KEEP_LOGS=1
				log "  the store failed during the $( ((failures > 0)) && echo run || echo warm-up) of $path (log: $APP_LOG): $(grep -E "$STORE_FAILED" "$APP_LOG" | tail -n 1 | cut -c1-240)"
			fi
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$ROUND" "$VARIANT" "$path" "$(field rps "$r")" \
				"$(field p50_us "$r")" "$(field p99_us "$r")" "$(field requests "$r")" "$(field status_errors "$r")" \
				"$(field socket_errors "$r")" "$c_evalsha" "$c_eval" "$c_ping" "$c_other" "$c_trips" "$c_scripts" "$c_keys" \
				"$failures" "$c_unsampled" "$ref_rps" "$ref_p99" "$ref_ratio" >>"$RESULTS"
			trips=""
			if [[ "$c_trips" != - ]]; then trips=", Redis trips/request $(awk -v c="$c_trips" -v n="$(field requests "$r")" 'BEGIN { printf "%.3f", (n > 0) ? c / n : 0 }')"; fi
			log "  $path: $(field rps "$r") req/s, p50 $(field p50_us "$r") us, p99 $(field p99_us "$r") us, status>=400: $(field status_errors "$r")/$(field requests "$r")$trips$ref_note"
		done
		if uses_redis "$VARIANT"; then
			printf '%s\t%s\t%s\n' "$ROUND" "$VARIANT" "$(key_types)" >>"$KEYS"
		fi
		if ! is_ref "$VARIANT"; then
			stop_pid "$APP_PID"
			APP_PID=""
			sleep 1
		fi
	done
	stop_refs
	sleep 1
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

# the JIT-settled warm-ups: per JVM (references first, then the variants), the most seconds it took over
# the rounds, wrapped to the report's width
jit_summary() {
	if ((JIT_MAX_S == 0)); then
		echo "jit:     the first path's warm-up is WARMUP alone (JIT_MAX=0)"
		return 0
	fi
	if ! command -v jstat >/dev/null; then
		echo "jit:     the first path's warm-up is WARMUP alone (no jstat)"
		return 0
	fi
	awk -F'\t' -v quiet="$JIT_QUIET" -v step="$JIT_STEP_S" -v max="$JIT_MAX_S" '
		{
			if (!($2 in most)) { order[++n] = $2; most[$2] = 0 }
			if ($4 == "-") unread[$2]++
			else if ($3 + 0 > most[$2]) most[$2] = $3 + 0
			if ($4 == "0") capped[$2]++
		}
		END {
			line = sprintf("jit:     warm-up extended until the JIT compiled < %s s in %d s (at most %d s more a path):", quiet, step, max)
			for (i = 1; i <= n; i++) {
				v = order[i]
				item = v " +" most[v] " s"
				if (capped[v]) item = item " (still compiling" (capped[v] > 1 ? " in " capped[v] " rounds" : "") ")"
				if (unread[v]) item = item " (jstat failed" (unread[v] > 1 ? " in " unread[v] " rounds" : "") ")"
				item = item (i < n ? "," : "")
				if (length(line) + 1 + length(item) > 118) { print line; line = "        " }
				line = line " " item
			}
			if (n == 0) line = line " no JVM measured"
			print line
		}' "$JITS"
	[[ -z "$JIT_NOTE" ]] || echo "         note: $JIT_NOTE"
}

report() {
	echo "ratelimit HTTP load benchmark (bench/run.sh), $NOW"
	echo
	echo "machine: $(nproc) cpus, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(awk '/^MemTotal/ { printf "%.1f GiB RAM", $2 / 1048576 }' /proc/meminfo), load average $LOAD_START at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
	echo "idle:    ${IDLE_BEFORE}% of the CPU idle over 3 s before the first run$( ((IDLE_BEFORE >= 90)) || echo ": BUSY, something else ran; do not trust these ratios")"
	echo "java:    $(first_line java -version)"
	echo "redis:   $(first_line redis-server --version)"
	echo "wrk:     $(first_line wrk -v | sed 's/ Copyright.*//')"
	echo "tree:    $TREE; peer: bucket4j-spring-boot-starter $PEER_VERSION (Bucket4j $PEER_BUCKET4J)"
	echo "run:     wrk -t$THREADS -c$CONNECTIONS -d$DURATION per path in $SLICE_COUNT slices of ${SLICE_S}s, each between two of the reference's ($REFS, up"
	echo "         through each round); a run's x own-off is the median of its slices' (each over the reference's right before and after);"
	echo "         per JVM a $WARMUP warm-up on the first path, $PATH_WARMUP on each later one; $ROUNDS round(s) alternating the variants,"
	echo "         JAVA_OPTS=$JAVA_OPTS"
	jit_summary
	echo "paths:   admitted-many: GET /v1/status, X-Forwarded-For one of $MANY_KEYS addresses in turn (198.18.0.1-$LAST_ADDRESS): $MANY_KEYS clients, $MANY_KEYS keys;"
	echo "                        $ADMITTED_LIMIT per address (tier + backstop; redis-script-one: the tier only), every request 200"
	echo "         admitted-hot:  GET /v1/status, X-Forwarded-For 198.18.0.1 on every request: one client, one hot key; the same limits"
	echo "         saturated:     POST /v1/auth/login from 127.0.0.1, 50/1m + 500/1h per address (backstop $ADMITTED_LIMIT), nearly every request 429"
	echo "apps:    off, memory, redis-*: the sample app (redis-script-one: bench/sample-one-bucket.yml, one bucket per request);"
	echo "         peer-*: bucket4j-spring-boot-starter, keyed by the forwarded address too;"
	echo "         floor-*: bench/floor-app, a bare filter making per request nothing (off), one PING (ping) or one EVALSHA of a"
	echo "         single-key token bucket keyed by the client address (script), through Spring Data Redis (Lettuce); admitted paths only;"
	echo "         floor-headers: no trip, the sample's rate-limit headers on the admitted path as fixed bytes (what sending them costs)"
	echo "         floor-memory: no trip, one token from each of the address's two Bucket4j local buckets in a Caffeine map, no headers"
	echo
	# a saturated path admits its 50 tokens and what refills during the warm-up (50/1m), a little margin
	awk -F'\t' -v rounds="$ROUNDS" -v variants="$VARIANTS" -v checks="$CHECKS" -v keys="$KEYS" \
		-v saturated_200="$((55 + (WARMUP_S > PATH_WARMUP_S ? WARMUP_S : PATH_WARMUP_S)))" '
		function median(list,    n, a, i, j, t) {
			n = split(list, a, " ")
			if (n == 0) return ""
			for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
			return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		function minof(list,    n, a, i, m) { n = split(list, a, " "); m = a[1] + 0; for (i = 2; i <= n; i++) if (a[i] + 0 < m) m = a[i] + 0; return m }
		function maxof(list,    n, a, i, m) { n = split(list, a, " "); m = a[1] + 0; for (i = 2; i <= n; i++) if (a[i] + 0 > m) m = a[i] + 0; return m }
		function base(v) { return (v ~ /^floor-/) ? "floor-off" : "off" }
		# the reference of row k in round r: its own slices interleaved with the variant (ref_rps, ref_p99_us), else the
		# reference row of the round (o). Sets refrps, refp99; 0 when there is none
		function reference(k, o, r) {
			if ((k, r) in rrps) { refrps = rrps[k, r]; refp99 = rp99[k, r]; return 1 }
			if ((o, r) in rps && rps[o, r] > 0) { refrps = rps[o, r]; refp99 = p99[o, r]; return 1 }
			return 0
		}
		function offlike(v) { return v == "off" || v == "floor-off" }
		function per(c, n) { return (n > 0) ? c / n : 0 }
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
			rps[k, round] = $4; p50[k, round] = $5 / 1000; p99[k, round] = $6 / 1000; n[k, round] = $7
			req[k] += $7; err[k] += $8; sock[k] += $9; fails[k] += $17; unsampled[k] += $18
			if ($19 != "" && $19 != "-" && $19 + 0 > 0) { rrps[k, round] = $19; rp99[k, round] = $20 / 1000 }
			if ($21 != "" && $21 != "-") rratio[k, round] = $21
			if ($14 != "-") { redis[k] = 1; ce[k, round] = $10; cv[k, round] = $11; cp[k, round] = $12; co[k, round] = $13; ct[k, round] = $14; cs[k, round] = $15; ck[k, round] = $16 }
		}
		END {
			tf = ENVIRON["TARGETS_FILE"]
			nv = split(variants, vs, " ")
			np = split("admitted-many admitted-hot saturated", ps, " ")
			for (pi = 1; pi <= np; pi++) {
				p = ps[pi]
				header = 0
				for (vi = 1; vi <= nv; vi++) {
					v = vs[vi]; k = v SUBSEP p; o = base(v) SUBSEP p
					lr = ""; l50 = ""; l99 = ""; lratio = ""; ldp99 = ""; ltrips = ""
					for (r = 1; r <= rounds; r++) {
						if (!((k, r) in rps)) continue
						lr = lr " " rps[k, r]; l50 = l50 " " p50[k, r]; l99 = l99 " " p99[k, r]
						ratio = ""; dp = ""; trips = ""
						if (reference(k, o, r)) {
							# the median of the ratios of the interleaved slices, else req/s over the reference
							ratio = ((k, r) in rratio) ? rratio[k, r] : rps[k, r] / refrps
							dp = p99[k, r] - refp99; lratio = lratio " " ratio; ldp99 = ldp99 " " dp
						}
						if (k in redis) { trips = per(ct[k, r], n[k, r]); ltrips = ltrips " " trips }
						printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\n", v, p, r, ratio, dp, rps[k, r], trips) > tf
					}
					if (lr == "") continue
					if (!header) {
						printf "%-13s %-18s %8s %7s %7s %9s %-11s %8s %9s  %s\n", "path", "variant", "req/s", "p50 ms", "p99 ms", "x own-off", "(min-max)", "+p99 ms", "trips/req", "statuses"
						header = 1
					}
					ratio = (lratio == "") ? "-" : sprintf("%.2f", median(lratio))
					range = (lratio == "" || rounds == 1) ? "" : sprintf("(%.2f-%.2f)", minof(lratio), maxof(lratio))
					dp99 = (ldp99 == "") ? "-" : sprintf("%+.2f", median(ldp99))
					trips = (ltrips == "") ? "-" : sprintf("%.3f", median(ltrips))
					# statuses: warm-up counted per response; measured runs: statuses >= 400 and socket errors
					share400 = (req[k] > 0) ? err[k] / req[k] : 0
					st = sprintf("warm-up 200:%d 429:%d other:%d; run >=400: %.1f%%", w200[k], w429[k], wother[k], 100 * share400)
					if (sock[k] > 0) st = st sprintf(", socket errors %d", sock[k])
					if (fails[k] > 0) { st = st ", STORE FAILED"; store_failed++ }
					ok = 1
					if (wother[k] > 0 || sock[k] > 0 || fails[k] > 0) ok = 0
					if (p != "saturated" || offlike(v)) { if (w429[k] > 0 || err[k] > 0) ok = 0 }
					else { if (wreq[k] == 0 || w200[k] > rounds * saturated_200 || share400 < 0.99) ok = 0 }
					st = st (ok ? "  ok" : "  CHECK")
					if (!ok) problems++
					printf "%-13s %-18s %8.0f %7.2f %7.2f %9s %-11s %8s %9s  %s\n", p, v, median(lr), median(l50), median(l99), ratio, range, dp99, trips, st
					if (k in redis) {
						le = ""; lv = ""; lp = ""; lo = ""; lt = ""; ls = ""; lk = ""
						for (r = 1; r <= rounds; r++) if ((k, r) in ct) {
							le = le " " per(ce[k, r], n[k, r]); lv = lv " " per(cv[k, r], n[k, r]); lp = lp " " per(cp[k, r], n[k, r])
							lo = lo " " per(co[k, r], n[k, r]); lt = lt " " per(ct[k, r], n[k, r]); ls = ls " " per(cs[k, r], n[k, r]); lk = lk " " ck[k, r]
						}
						cmds[++ncmds] = sprintf("  %-13s %-18s %7.3f %7.3f %7.3f %7.3f %7.3f %10.3f %6d", p, v, median(le), median(lv), median(lp), median(lo), median(lt), median(ls), median(lk))
						if (unsampled[k] > 0.01 * req[k]) unsampled_rows = unsampled_rows sprintf("%s%s on %s (%.3f/request)", (unsampled_rows == "" ? "" : ", "), v, p, unsampled[k] / req[k])
					}
				}
				if (header) print ""
			}
			close(tf)
			print "x own-off: req/s over the req/s of the same app with the limiter off (off; floor-off for floor-*) in slices"
			print "interleaved with it on the same path, each over the mean of the reference'"'"'s right before and after it, both JVMs"
			print "up (the reference runs through the round); per round the median of the slices, then the median over the rounds"
			print "(min-max: their range). +p99: the median of the slices'"'"' p99 minus the median of the reference'"'"'s, median over the"
			print "rounds. trips/req: commands the app sent Redis in the measured run per request answered, median. statuses:"
			print "counted per response in the warm-up; share of statuses >= 400 in the measured run (admitted: expect 0%;"
			print "saturated: ~100%; off: 0%)."
			if (ncmds) {
				print ""
				print "Redis commands per request in the measured runs, median over the rounds (INFO commandstats before and after;"
				print "what the app sent vs what its scripts ran, per command, from a 1 s MONITOR sample in the warm-up; keys: the"
				print "keys that sample touched):"
				printf "  %-13s %-18s %7s %7s %7s %7s %7s %10s %6s\n", "path", "variant", "EVALSHA", "EVAL", "PING", "other", "trips", "in scripts", "keys"
				for (i = 1; i <= ncmds; i++) print cmds[i]
				if (unsampled_rows != "") print "  note: commands the MONITOR sample did not see were counted as the app'"'"'s (its trips may be overstated): " unsampled_rows
			}
			print ""
			for (vi = 1; vi <= nv; vi++) if (vs[vi] in keytypes) printf "store keys left in Redis by %-19s %s\n", vs[vi] ":", (keytypes[vs[vi]] == "") ? "none" : keytypes[vs[vi]]
			if (("redis-script" in keytypes) && keytypes["redis-script"] !~ /hash/) print "  note: redis-script left no hash keys: the script strategy did not run (ratelimit.storage.redis.strategy not supported by this build?)"
			if (("redis-script" in keytypes) && ("redis-bucket4j" in keytypes) && keytypes["redis-script"] == keytypes["redis-bucket4j"]) print "  note: both Redis variants left the same kinds of keys: they probably ran the same strategy"
			if (problems) print "\nCHECK: " problems " row(s) did not answer as expected (admitted: all 200; saturated: 429 but for its 50 tokens and their refill); see the statuses column"
			if (store_failed) print "CHECK: in " store_failed " row(s) the limiter'"'"'s store failed in the measured run (a slow connect or timeouts on a busy machine?): the app decided in its failure mode, so those figures are not Redis'"'"'s; the app logs are kept"
		}' "$RESULTS"

	echo "Redis reference: redis-benchmark -c $CONNECTIONS -n $REDIS_BENCH_N on the same server"
	awk -F'\t' '{ printf "  %-70s %9.0f req/s  p50 %.2f ms  p99 %.2f ms\n", $1, $2, $3, $4 }' "$REDIS_BENCH"
	[[ -z "$SCRIPT_NOTE" ]] || echo "  note: $SCRIPT_NOTE"
	echo

	echo "Targets (issue 23, DESIGN.md section 12): medians over the rounds of per-round ratios (x own-off)"
	awk -F'\t' -v bench="$REDIS_BENCH" '
		BEGIN { while ((getline line < bench) > 0) { split(line, b, "\t"); if (line ~ /^EVALSHA token-buckets.lua, admitted/) script_rps = b[2] } }
		{ k = $1 SUBSEP $2; r = $3; rounds[r] = 1; ratio[k, r] = $4; dp99[k, r] = $5; rps[k, r] = $6; trips[k, r] = $7 }
		function median(list,    n, a, i, j, t) {
			n = split(list, a, " ")
			for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
			return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		# the median over the rounds of one per-round value of v on p ("" when never measured)
		function med(arr, v, p,    list, r, k) {
			k = v SUBSEP p; list = ""
			for (r in rounds) if (((k, r) in arr) && arr[k, r] != "") list = list " " arr[k, r]
			return (list == "") ? "" : median(list)
		}
		# the lowest and highest of the rounds of one per-round value, into LO and HI
		function span(arr, v, p,    r, k, x) {
			k = v SUBSEP p; LO = ""; HI = ""
			for (r in rounds) if (((k, r) in arr) && arr[k, r] != "") {
				x = arr[k, r] + 0
				if (LO == "" || x < LO) LO = x
				if (HI == "" || x > HI) HI = x
			}
		}
		# a ratio target: its median decides, but when the rounds fall on both sides of it the
		# machine drifted more than the margin, and one more round could turn the verdict
		function judged(x, lo, hi, min) {
			if (lo != "" && lo < min && hi >= min) return sprintf("%s, UNSURE: rounds %.2f-%.2f on both sides (more ROUNDS)", (x >= min) ? "PASS" : "MISS", lo, hi)
			return verdict(x >= min)
		}
		# the median over the rounds of the quotient of two per-round values, both measured in that round
		function medq(arr, v1, p1, v2, p2,    list, r, a, b) {
			list = ""
			for (r in rounds) {
				a = ((v1 SUBSEP p1, r) in arr) ? arr[v1 SUBSEP p1, r] : ""; b = ((v2 SUBSEP p2, r) in arr) ? arr[v2 SUBSEP p2, r] : ""
				if (a != "" && b != "" && b + 0 > 0) list = list " " a / b
			}
			return (list == "") ? "" : median(list)
		}
		# a label longer than its column gets a line of its own, the value below it
		function target(label, value, pass) {
			if (length(label) > 74) { printf "  %s\n", label; label = "" }
			printf "  %-74s %-22s %s\n", label, value, pass
		}
		function verdict(ok) { return ok ? "PASS" : "MISS" }
		# v x off >= 0.95 x (floor-script x floor-off) on admitted-many: within 5% of a one-trip limiter
		function near_floor(v, why,    q, label) {
			q = medq(ratio, v, "admitted-many", "floor-script", "admitted-many")
			label = v " x off >= 0.95 x (floor-script x floor-off), admitted-many " why
			if (q == "") target(label, "not run", "-")
			else target(label, sprintf("%.2f (%.2f / %.2f)", q, med(ratio, v, "admitted-many"), med(ratio, "floor-script", "admitted-many")), verdict(q >= 0.95))
		}
		function atleast(label, v, p, min,    x) {
			x = med(ratio, v, p)
			if (x == "") { target(label, "not run", "-"); return }
			span(ratio, v, p)
			target(label, sprintf("%.2f", x), judged(x, LO, HI, min))
		}
		END {
			atleast("memory x off >= 0.90, admitted-many", "memory", "admitted-many", 0.9)
			atleast("memory x off >= 0.90, admitted-hot", "memory", "admitted-hot", 0.9)
			near_floor("redis-script", "(the sample: two buckets per request)")
			near_floor("redis-script-one", "(like for like: one bucket)")
			atleast("redis-script x off >= 0.90, saturated (refusals without a trip)", "redis-script", "saturated", 0.9)
			q = medq(ratio, "redis-script", "admitted-hot", "floor-ping", "admitted-hot")
			label = "redis-script x off > floor-ping x floor-off, admitted-hot (fewer trips)"
			if (q == "") target(label, "not run", "-")
			else target(label, sprintf("%.2f vs %.2f", med(ratio, "redis-script", "admitted-hot"), med(ratio, "floor-ping", "admitted-hot")), verdict(q > 1))
			split("admitted-many admitted-hot", ap, " ")
			for (i = 1; i <= 2; i++) {
				p = ap[i]
				# what the cheapest in-memory limiter of the same two buckets reaches on this machine
				q = medq(ratio, "memory", p, "floor-memory", p)
				if (q != "") target("info: memory x off over floor-memory x floor-off, " p, sprintf("%.2f (%.2f / %.2f)", q, med(ratio, "memory", p), med(ratio, "floor-memory", p)), "")
				x = med(dp99, "memory", p)
				if (x != "") target("memory: added p99 < 1 ms, " p, sprintf("%+.2f ms", x), verdict(x < 1))
				# quotients of the paired ratios (each x the off slices interleaved with it): raw req/s of
				# runs minutes apart would measure the drift of the machine as well
				q = medq(ratio, "memory", p, "peer-memory", p)
				if (q != "") target("memory ahead of peer-memory (x off over x off), " p, sprintf("%.2fx", q), verdict(q > 1))
				q = medq(ratio, "redis-script", p, "peer-redis", p)
				if (q != "") target("redis-script ahead of peer-redis (x off over x off), " p, sprintf("%.2fx", q), verdict(q > 1))
			}
			x = med(rps, "redis-script", "admitted-hot")
			if (x != "" && script_rps > 0)
				target("info: redis-script HTTP req/s, admitted-hot / redis-benchmark script", sprintf("%.2f", x / script_rps), "(whole HTTP request vs bare decision)")
			line = ""
			split("admitted-many admitted-hot saturated", all, " ")
			for (i = 1; i <= 3; i++) { x = med(trips, "redis-script", all[i]); if (x != "") line = line (line == "" ? "" : ", ") sprintf("%s %.3f", all[i], x) }
			if (line != "") printf "  %-74s %s\n", "info: redis-script Redis trips per request", line
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
