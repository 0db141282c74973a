package io.github.ratelimit.behaviour;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Clients that call an app from a new address every time, so that their buckets fall
 * everywhere (on every node of a Cluster), while a fault is under way; until stopped, and
 * never longer than a minute. Records what they were answered and how long each answer
 * took.
 */
final class Traffic {

	private static final int CLIENTS = 4;

	private static final AtomicInteger addresses = new AtomicInteger();

	private final BehaviourApp app;

	private final BooleanSupplier breakerOpen;

	private final Map<Integer, Long> statuses = new ConcurrentHashMap<>();

	private final AtomicLong unlimited = new AtomicLong();

	private final AtomicLong limited = new AtomicLong();

	private final AtomicLong slowestNanos = new AtomicLong();

	private final AtomicLong slowestWhileOpenNanos = new AtomicLong();

	private final AtomicLong whileOpen = new AtomicLong();

	private final ConcurrentLinkedQueue<Long> whileOpenNanos = new ConcurrentLinkedQueue<>();

	private final ConcurrentLinkedQueue<String> serverErrors = new ConcurrentLinkedQueue<>();

	private final AtomicBoolean running = new AtomicBoolean(true);

	private final ExecutorService executor = Executors.newFixedThreadPool(CLIENTS);

	private final List<Future<?>> clients = new ArrayList<>();

	private Traffic(BehaviourApp app, BooleanSupplier breakerOpen) {
		this.app = app;
		this.breakerOpen = breakerOpen;
	}

	/**
	 * Starts calling {@code /api/hello}.
	 * @param app the app
	 * @param breakerOpen whether the store's circuit breaker is open, asked before each
	 * request
	 * @return the running traffic
	 */
	static Traffic start(BehaviourApp app, BooleanSupplier breakerOpen) {
		Traffic traffic = new Traffic(app, breakerOpen);
		for (int i = 0; i < CLIENTS; i++) {
			traffic.clients.add(traffic.executor.submit(traffic::call));
		}
		return traffic;
	}

	/**
	 * An address no caller of any test has used, from the benchmarking range
	 * 198.18.0.0/15.
	 */
	static String nextAddress() {
		int n = addresses.incrementAndGet();
		return "198.19." + (n / 250) % 250 + "." + (n % 250 + 1);
	}

	/**
	 * A caller's request to {@code /api/hello}, forwarded by the trusted proxy from its
	 * address.
	 */
	static Reply hello(BehaviourApp app, String address) {
		return Http.send(app.port(), "GET", "/api/hello", "X-Forwarded-For", address);
	}

	/** Waits a little between polls. */
	static void pause() {
		LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
	}

	private void call() {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (this.running.get() && System.nanoTime() < deadline) {
			boolean open = this.breakerOpen.getAsBoolean();
			long start = System.nanoTime();
			Reply reply = hello(this.app, nextAddress());
			long took = System.nanoTime() - start;
			this.slowestNanos.accumulateAndGet(took, Math::max);
			if (open) {
				this.whileOpen.incrementAndGet();
				this.slowestWhileOpenNanos.accumulateAndGet(took, Math::max);
				this.whileOpenNanos.add(took);
			}
			this.statuses.merge(reply.status(), 1L, Long::sum);
			(reply.header("RateLimit").isPresent() ? this.limited : this.unlimited).incrementAndGet();
			if (reply.status() >= 500 && !isUnavailable(reply) && this.serverErrors.size() < 5) {
				this.serverErrors.add(reply.toString());
			}
		}
	}

	/** The closed failure mode's answer: 503 {@code rate_limiter_unavailable}. */
	static boolean isUnavailable(Reply reply) {
		return reply.status() == 503 && reply.body().contains("\"code\":\"rate_limiter_unavailable\"");
	}

	/** Stops the clients and waits until their last requests are answered. */
	Traffic stop() throws Exception {
		this.running.set(false);
		for (Future<?> client : this.clients) {
			client.get(30, TimeUnit.SECONDS);
		}
		this.executor.shutdown();
		return this;
	}

	/** The statuses answered, and how often. */
	Map<Integer, Long> statuses() {
		return this.statuses;
	}

	/**
	 * Answers without rate-limit headers: admitted by the open failure mode, or refused
	 * by the closed one.
	 */
	long unlimited() {
		return this.unlimited.get();
	}

	/**
	 * Answers with rate-limit headers: decided by a store (Redis, or the local fallback).
	 */
	long limited() {
		return this.limited.get();
	}

	/**
	 * Answers with a 5xx other than the closed failure mode's 503 (at most five of them).
	 */
	List<String> serverErrors() {
		return List.copyOf(this.serverErrors);
	}

	Duration slowest() {
		return Duration.ofNanos(this.slowestNanos.get());
	}

	/** The slowest answer to a request sent while the circuit breaker was open. */
	Duration slowestWhileOpen() {
		return Duration.ofNanos(this.slowestWhileOpenNanos.get());
	}

	/**
	 * How many requests sent while the circuit breaker was open took longer than
	 * {@code limit}: the breaker's probes (one per cool-down) may wait for a silent
	 * Redis, no other request does.
	 */
	long whileOpenSlowerThan(Duration limit) {
		return this.whileOpenNanos.stream().filter((took) -> took > limit.toNanos()).count();
	}

	/** How many requests were sent while the circuit breaker was open. */
	long whileOpen() {
		return this.whileOpen.get();
	}

	@Override
	public String toString() {
		return "statuses " + this.statuses + ", with limit headers " + this.limited + ", without " + this.unlimited
				+ ", slowest " + slowest().toMillis() + " ms, " + this.whileOpen + " sent while the breaker was open"
				+ " (slowest " + slowestWhileOpen().toMillis() + " ms)";
	}

}
