package io.github.ratelimit.storage.redis;

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
import io.github.ratelimit.storage.StoreDecision;

/**
 * The {@code script} strategy (the default): every bucket of a request is checked and taken from by one
 * Lua script ({@value TokenBucketScript#RESOURCE}), atomically, in one round trip, with Redis's own
 * clock. A refused request changes nothing; concurrent requests on one key are serialised by Redis and
 * never retried; instances need no synchronised clocks. Requests that arrive while a call is in flight go
 * together in the next one ({@link ScriptSession}).
 * <p>
 * <b>Redis Cluster.</b> A script may only touch keys of one slot, and the keys of one request (user, org,
 * address) usually live in different slots. The checks are then grouped by slot, one script per slot is
 * sent in parallel, and when one slot refuses, the tokens the others took are given back (a second
 * script) before the answer: a rejected request still drains nothing, but between the take and the
 * give-back a concurrent request may see the lower count (which errs on the safe side). Give every key
 * one slot with a hash tag in {@code ratelimit.storage.key-prefix} (such as <code>{rl}:</code>) to keep
 * every decision atomic, at the price of putting every bucket on one node.
 */
public final class RedisScriptRateLimitStore extends RedisRateLimitStore<ScriptSession> {

	private final TokenBucketScript script = new TokenBucketScript();

	private final @Nullable LongSupplier clock;

	private final @Nullable ToIntFunction<byte[]> slots;

	/**
	 * Creates a store on Redis's clock. Nothing is connected yet.
	 * @param connector opens the store's connection
	 * @param timeout how long Redis may stay silent, such as {@link #DEFAULT_TIMEOUT}
	 * @param circuitBreaker the breaker that stops calls to a failing Redis
	 */
	public RedisScriptRateLimitStore(RedisConnector connector, Duration timeout, CircuitBreaker circuitBreaker) {
		this(connector, timeout, circuitBreaker, null, null);
	}

	/**
	 * Creates a store for tests.
	 * @param clock the time in milliseconds the script uses instead of Redis's, or {@code null}
	 * @param slots groups keys as Cluster slots would, or {@code null} for the connection's own rule
	 */
	RedisScriptRateLimitStore(RedisConnector connector, Duration timeout, CircuitBreaker circuitBreaker,
			@Nullable LongSupplier clock, @Nullable ToIntFunction<byte[]> slots) {
		super(connector, timeout, circuitBreaker);
		this.clock = clock;
		this.slots = slots;
	}

	@Override
	ScriptSession openSession(StatefulConnection<byte[], byte[]> connection) {
		ScriptSession session = new ScriptSession(connection, this.script);
		session.load(maxWait());
		return session;
	}

	@Override
	PendingDecision send(ScriptSession session, List<LimitCheck> checks) {
		byte[][] keys = TokenBucketScript.keys(checks);
		ToIntFunction<byte[]> slotOf = (this.slots != null) ? this.slots : session.isCluster() ? SlotHash::getSlot : null;
		if (slotOf == null) {
			return new Slot(session, checks, keys, all(checks.size())).send();
		}
		Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
		for (int i = 0; i < keys.length; i++) {
			bySlot.computeIfAbsent(slotOf.applyAsInt(keys[i]), (slot) -> new ArrayList<>()).add(i);
		}
		if (bySlot.size() == 1) {
			return new Slot(session, checks, keys, all(checks.size())).send();
		}
		List<Slot> parts = new ArrayList<>(bySlot.size());
		for (List<Integer> indexes : bySlot.values()) {
			List<LimitCheck> part = new ArrayList<>(indexes.size());
			byte[][] partKeys = new byte[indexes.size()][];
			int[] positions = new int[indexes.size()];
			for (int j = 0; j < positions.length; j++) {
				positions[j] = indexes.get(j);
				part.add(checks.get(positions[j]));
				partKeys[j] = keys[positions[j]];
			}
			parts.add(new Slot(session, part, partKeys, positions));
		}
		return new AcrossSlots(checks.size(), parts).send();
	}

	private long now() {
		return (this.clock != null) ? this.clock.getAsLong() : -1;
	}

	private static int[] all(int size) {
		int[] indexes = new int[size];
		for (int i = 0; i < size; i++) {
			indexes[i] = i;
		}
		return indexes;
	}

	/** The checks of one slot: one script, atomic. */
	private final class Slot implements PendingDecision {

		private final ScriptSession session;

		private final List<LimitCheck> checks;

		private final byte[][] keys;

		private final int[] positions;

		private CompletableFuture<StoreDecision> answer = new CompletableFuture<>();

		private volatile boolean abandoned;

		Slot(ScriptSession session, List<LimitCheck> checks, byte[][] keys, int[] positions) {
			this.session = session;
			this.checks = checks;
			this.keys = keys;
			this.positions = positions;
		}

		Slot send() {
			this.answer = this.session.decide(this.checks, this.keys, now());
			return this;
		}

		@Override
		public CompletableFuture<StoreDecision> answer() {
			return this.answer;
		}

		@Override
		public void abandon() {
			if (this.abandoned) {
				return;
			}
			this.abandoned = true;
			this.answer.thenAccept((decision) -> {
				if (decision.admitted()) {
					refund(decision);
				}
			});
		}

		/** Gives back what this slot's admitted answer took. */
		CompletableFuture<?> refund(StoreDecision decision) {
			List<LimitCheck> taken = new ArrayList<>(this.checks.size());
			List<byte[]> takenKeys = new ArrayList<>(this.checks.size());
			for (int i = 0; i < this.checks.size(); i++) {
				if (decision.results().get(i).hadTokens()) {
					taken.add(this.checks.get(i));
					takenKeys.add(this.keys[i]);
				}
			}
			if (taken.isEmpty()) {
				return CompletableFuture.completedFuture(null);
			}
			return this.session.run(takenKeys.toArray(byte[][]::new),
					RedisScriptRateLimitStore.this.script.arguments(List.of(taken), true, now()));
		}

	}

	/** The checks of a request spread over several slots: one script each, and give-backs on refusal. */
	private static final class AcrossSlots implements PendingDecision {

		private final int size;

		private final List<Slot> slots;

		private CompletableFuture<StoreDecision> answer = new CompletableFuture<>();

		AcrossSlots(int size, List<Slot> slots) {
			this.size = size;
			this.slots = slots;
		}

		AcrossSlots send() {
			CompletableFuture<?>[] answers = new CompletableFuture<?>[this.slots.size()];
			for (int s = 0; s < answers.length; s++) {
				answers[s] = this.slots.get(s).send().answer();
			}
			this.answer = CompletableFuture.allOf(answers).thenCompose((ignored) -> settle());
			return this;
		}

		private CompletableFuture<StoreDecision> settle() {
			CheckResult[] results = new CheckResult[this.size];
			boolean admitted = true;
			for (Slot slot : this.slots) {
				StoreDecision part = slot.answer().join();
				admitted &= part.admitted();
				for (int j = 0; j < slot.positions.length; j++) {
					results[slot.positions[j]] = part.results().get(j);
				}
			}
			StoreDecision decision = new StoreDecision(admitted, List.of(results));
			if (admitted) {
				return CompletableFuture.completedFuture(decision);
			}
			List<CompletableFuture<?>> refunds = new ArrayList<>();
			for (Slot slot : this.slots) {
				StoreDecision part = slot.answer().join();
				if (part.admitted()) {
					refunds.add(slot.refund(part));
				}
			}
			return CompletableFuture.allOf(refunds.toArray(CompletableFuture[]::new)).thenApply((ignored) -> decision);
		}

		@Override
		public CompletableFuture<StoreDecision> answer() {
			return this.answer;
		}

		@Override
		public void abandon() {
			// a refusal gave back what the admitting slots took already; otherwise each slot gives back its own
			this.answer.whenComplete((decision, failure) -> {
				if (failure != null || decision.admitted()) {
					this.slots.forEach(Slot::abandon);
				}
			});
		}

	}

}
