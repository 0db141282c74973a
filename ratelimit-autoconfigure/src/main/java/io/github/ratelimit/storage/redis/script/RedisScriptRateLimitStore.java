package io.github.ratelimit.storage.redis.script;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.SlotHash;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.redis.PendingDecision;
import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.storage.redis.RedisStoreDefaults;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.RedisConnector;

/**
 * The {@code script} strategy (the default): every bucket of a request is checked and
 * taken from by one Lua script ({@value TokenBucketScript#RESOURCE}), atomically, in one
 * round trip, with Redis's own clock. A refused request changes nothing; concurrent
 * requests on one key are serialised by Redis and never retried; instances need no
 * synchronised clocks. Requests that arrive while a call is in flight go together in the
 * next one ({@link ScriptSession}).
 * <p>
 * <b>Kinds of limits.</b> Token buckets refill continuously; calendar quotas and fixed
 * windows reset at the boundaries of their periods as Redis's clock sees them, so every
 * instance resets at once; sliding windows align their windows, and leaky buckets drain,
 * by Redis's clock too (a leaky bucket's slot due within a request's wait is taken, and
 * the request waits, as for a token bucket's debt); a concurrency permit is a lease on a
 * slot of the bucket's hash that expires after {@code leaseTime} unless renewed. The
 * store renews the leases of requests in flight every third of it ({@link LeaseKeeper})
 * and releases them with a call of its own, sent without waiting for it: a crashed
 * instance, or a release that does not arrive, leaks a permit for a lease time at most.
 * <p>
 * <b>Redis Cluster.</b> A script may only touch keys of one slot, and the keys of one
 * request (user, org, address) usually live in different slots. The checks are then
 * grouped by slot, one script per slot is sent in parallel, and when one slot refuses,
 * what the others took (tokens, quota counts, permits) is given back (a second script)
 * before the answer: a rejected request still drains nothing, but between the take and
 * the give-back a concurrent request may see the lower count (which errs on the safe
 * side). Give every key one slot with a hash tag in {@code ratelimit.storage.key-prefix}
 * (such as <code>{rl}:</code>) to keep every decision atomic, at the price of putting
 * every bucket on one node.
 */
public final class RedisScriptRateLimitStore extends RedisRateLimitStore<ScriptSession> {

	/** How long a permit stays leased unless renewed, when no lease time is given. */
	public static final Duration DEFAULT_LEASE_TIME = RedisStoreDefaults.LEASE_TIME;

	private final TokenBucketScript script;

	private final @Nullable LongSupplier clock;

	private final @Nullable ToIntFunction<byte[]> slots;

	private final LeaseKeeper leases;

	/**
	 * The session decisions went through last: releases and renewals go through it too.
	 */
	private volatile @Nullable ScriptSession session;

	/**
	 * Creates a store on Redis's clock, whose permits are leased for
	 * {@link #DEFAULT_LEASE_TIME}. Nothing is connected yet.
	 * @param connector opens the store's connection
	 * @param timeout how long Redis may stay silent, such as {@link #DEFAULT_TIMEOUT}
	 * @param circuitBreaker the breaker that stops calls to a failing Redis
	 */
	public RedisScriptRateLimitStore(RedisConnector connector, Duration timeout, CircuitBreaker circuitBreaker) {
		this(connector, timeout, circuitBreaker, DEFAULT_LEASE_TIME);
	}

	/**
	 * Creates a store on Redis's clock. Nothing is connected yet.
	 * @param connector opens the store's connection
	 * @param timeout how long Redis may stay silent, such as {@link #DEFAULT_TIMEOUT}
	 * @param circuitBreaker the breaker that stops calls to a failing Redis
	 * @param leaseTime how long a concurrency permit stays leased unless renewed: how
	 * long the permits of a crashed instance stay taken
	 * ({@code ratelimit.storage.redis.lease-time})
	 */
	public RedisScriptRateLimitStore(RedisConnector connector, Duration timeout, CircuitBreaker circuitBreaker,
			Duration leaseTime) {
		this(connector, timeout, circuitBreaker, leaseTime, null, null, null);
	}

	/**
	 * Creates a store for tests.
	 * @param clock the time in milliseconds the script uses instead of Redis's, and that
	 * calendar quotas name their periods by, or {@code null}
	 * @param slots groups keys as Cluster slots would, or {@code null} for the
	 * connection's own rule
	 */
	RedisScriptRateLimitStore(RedisConnector connector, Duration timeout, CircuitBreaker circuitBreaker,
			@Nullable LongSupplier clock, @Nullable ToIntFunction<byte[]> slots) {
		this(connector, timeout, circuitBreaker, DEFAULT_LEASE_TIME, clock, clock, slots);
	}

	/**
	 * Creates a store for tests.
	 * @param clock the time in milliseconds the script uses instead of Redis's, or
	 * {@code null}
	 * @param wallClock this instance's time in milliseconds, that calendar quotas name
	 * their periods by (the script picks among them by its own), or {@code null} for the
	 * system clock
	 * @param slots groups keys as Cluster slots would, or {@code null} for the
	 * connection's own rule
	 */
	RedisScriptRateLimitStore(RedisConnector connector, Duration timeout, CircuitBreaker circuitBreaker,
			Duration leaseTime, @Nullable LongSupplier clock, @Nullable LongSupplier wallClock,
			@Nullable ToIntFunction<byte[]> slots) {
		super(connector, timeout, circuitBreaker);
		if (leaseTime.toMillis() < 1) {
			throw new IllegalArgumentException("leaseTime must be at least 1 ms, was " + leaseTime);
		}
		this.clock = clock;
		this.slots = slots;
		this.script = new TokenBucketScript(leaseTime, (wallClock != null) ? wallClock : System::currentTimeMillis);
		this.leases = new LeaseKeeper(this.script, leaseTime, () -> this.session, this::slotsOf, this::now);
	}

	@Override
	protected ScriptSession openSession(StatefulConnection<byte[], byte[]> connection) {
		ScriptSession opened = new ScriptSession(connection, this.script);
		opened.load(maxWait());
		ScriptSession current = this.session;
		if (current == null || !current.isOpen()) {
			// renewals may be due before the next decision
			this.session = opened;
		}
		return opened;
	}

	@Override
	protected PendingDecision send(ScriptSession session, List<LimitCheck> checks) {
		if (this.session != session) {
			this.session = session;
		}
		byte[][] keys = TokenBucketScript.keys(checks);
		byte[] leaseId = TokenBucketScript.NO_LEASE;
		for (LimitCheck check : checks) {
			if (check.cost() > 0 && this.script.permits(check) > 0) {
				leaseId = this.leases.newId();
				break;
			}
		}
		PendingDecision pending = sendBySlot(session, checks, keys, leaseId);
		return (leaseId.length == 0) ? pending
				: new LeasingDecision(pending, checks, keys, leaseId, this.script, this.leases);
	}

	private PendingDecision sendBySlot(ScriptSession session, List<LimitCheck> checks, byte[][] keys, byte[] leaseId) {
		ToIntFunction<byte[]> slotOf = slotsOf(session);
		if (slotOf == null) {
			return newSlot(session, checks, keys, leaseId, all(checks.size())).send();
		}
		Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
		for (int i = 0; i < keys.length; i++) {
			bySlot.computeIfAbsent(slotOf.applyAsInt(keys[i]), (slot) -> new ArrayList<>()).add(i);
		}
		if (bySlot.size() == 1) {
			return newSlot(session, checks, keys, leaseId, all(checks.size())).send();
		}
		List<SlotDecision> parts = new ArrayList<>(bySlot.size());
		for (List<Integer> indexes : bySlot.values()) {
			List<LimitCheck> part = new ArrayList<>(indexes.size());
			byte[][] partKeys = new byte[indexes.size()][];
			int[] positions = new int[indexes.size()];
			for (int j = 0; j < positions.length; j++) {
				positions[j] = indexes.get(j);
				part.add(checks.get(positions[j]));
				partKeys[j] = keys[positions[j]];
			}
			parts.add(newSlot(session, part, partKeys, leaseId, positions));
		}
		return new AcrossSlotsDecision(checks.size(), parts).send();
	}

	/**
	 * Gives back with the script's refund, by slot on a Cluster; without a lease id, so
	 * no permit moves (their requests release them).
	 */
	@Override
	protected CompletableFuture<?> sendGiveBack(ScriptSession session, List<LimitCheck> checks) {
		byte[][] keys = TokenBucketScript.keys(checks);
		ToIntFunction<byte[]> slotOf = slotsOf(session);
		if (slotOf == null) {
			return refund(session, checks, keys);
		}
		Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
		for (int i = 0; i < keys.length; i++) {
			bySlot.computeIfAbsent(slotOf.applyAsInt(keys[i]), (slot) -> new ArrayList<>()).add(i);
		}
		List<CompletableFuture<?>> refunds = new ArrayList<>(bySlot.size());
		for (List<Integer> indexes : bySlot.values()) {
			List<LimitCheck> part = new ArrayList<>(indexes.size());
			byte[][] partKeys = new byte[indexes.size()][];
			for (int j = 0; j < partKeys.length; j++) {
				part.add(checks.get(indexes.get(j)));
				partKeys[j] = keys[indexes.get(j)];
			}
			refunds.add(refund(session, part, partKeys));
		}
		return CompletableFuture.allOf(refunds.toArray(CompletableFuture[]::new));
	}

	private CompletableFuture<?> refund(ScriptSession session, List<LimitCheck> checks, byte[][] keys) {
		return session.run(keys, this.script
			.arguments(List.of(new TokenBucketScript.Request(checks, TokenBucketScript.NO_LEASE)), true, now()));
	}

	private @Nullable ToIntFunction<byte[]> slotsOf(ScriptSession session) {
		return (this.slots != null) ? this.slots : session.isCluster() ? SlotHash::getSlot : null;
	}

	/**
	 * Reads the buckets through the script with checks of cost 0, which take nothing, for
	 * an operator: up to {@link #OPERATOR_TIMEOUT}, and never counted by the circuit
	 * breaker.
	 */
	@Override
	public boolean canInspect() {
		return true;
	}

	@Override
	public List<CheckResult> inspect(List<LimitCheck> checks) {
		List<LimitCheck> reads = new ArrayList<>(checks.size());
		for (LimitCheck check : checks) {
			reads.add(new LimitCheck(check.policy(), check.key(), 0, true, 0));
		}
		return decideForOperator(reads).results();
	}

	/** The leases of permits held by requests in flight (tests). */
	LeaseKeeper leases() {
		return this.leases;
	}

	/**
	 * Stops renewing leases and closes the connection; permits still held run out with
	 * their leases.
	 */
	@Override
	public void close() {
		this.leases.close();
		super.close();
	}

	private long now() {
		return (this.clock != null) ? this.clock.getAsLong() : -1;
	}

	private SlotDecision newSlot(ScriptSession session, List<LimitCheck> checks, byte[][] keys, byte[] leaseId,
			int[] positions) {
		return new SlotDecision(session, this.script, this::now, checks, keys, leaseId, positions);
	}

	private static int[] all(int size) {
		int[] indexes = new int[size];
		for (int i = 0; i < size; i++) {
			indexes[i] = i;
		}
		return indexes;
	}

	@Override
	public String name() {
		return "redis-script";
	}

}
