package io.github.ratelimit.storage.redis.script;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.storage.Permits;

/**
 * The leases of the permits this instance holds: hands out lease ids, renews every held
 * lease each third of the lease time (one script call for all, per slot in Redis Cluster)
 * so a long request keeps its permit, and sends releases without waiting for them.
 * Nothing here blocks a request or throws: a call that fails leaves the lease to run out,
 * which is how a crashed instance gives its permits back too.
 */
final class LeaseKeeper implements AutoCloseable {

	/** The most leases in one call: bounds the time one script holds Redis. */
	static final int MAX_LEASES_PER_CALL = 512;

	private final TokenBucketScript script;

	private final long renewMillis;

	private final Supplier<@Nullable ScriptSession> session;

	private final Function<ScriptSession, @Nullable ToIntFunction<byte[]>> slots;

	private final LongSupplier now;

	private final Set<Lease> held = ConcurrentHashMap.newKeySet();

	/** Unique per instance, so lease ids of several instances never meet. */
	private final String idPrefix = UUID.randomUUID().toString().substring(0, 13) + ".";

	private final AtomicLong ids = new AtomicLong();

	private final ScheduledThreadPoolExecutor renewer;

	private final AtomicBoolean renewing = new AtomicBoolean();

	/**
	 * Creates a keeper; its thread starts with the first lease.
	 * @param session the current session, or {@code null} while there is none
	 * @param slots groups a session's keys by Cluster slot, or {@code null} when one call
	 * may take any keys
	 * @param now the script time to send (negative for the server's clock)
	 */
	LeaseKeeper(TokenBucketScript script, Duration leaseTime, Supplier<@Nullable ScriptSession> session,
			Function<ScriptSession, @Nullable ToIntFunction<byte[]>> slots, LongSupplier now) {
		this.script = script;
		this.renewMillis = Math.max(1, leaseTime.toMillis() / 3);
		this.session = session;
		this.slots = slots;
		this.now = now;
		this.renewer = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "ratelimit-redis-leases");
			thread.setDaemon(true);
			return thread;
		});
	}

	/** A lease id no other request of any instance uses. */
	byte[] newId() {
		return TokenBucketScript.bytes(this.idPrefix + Long.toString(this.ids.incrementAndGet(), 36));
	}

	/** The permits of an admitted request, renewed from now on until released. */
	Permits hold(List<Lease.Held> permits) {
		if (permits.isEmpty()) {
			return Permits.NONE;
		}
		Lease lease = new Lease(this, permits);
		this.held.add(lease);
		if (!this.renewing.get() && this.renewing.compareAndSet(false, true)) {
			try {
				this.renewer.scheduleWithFixedDelay(this::renewQuietly, this.renewMillis, this.renewMillis,
						TimeUnit.MILLISECONDS);
			}
			catch (RejectedExecutionException ex) {
				// closed: the leases run out
			}
		}
		return lease;
	}

	void release(Lease lease) {
		this.held.remove(lease);
		send(lease.held(), false);
	}

	void forget(Lease lease) {
		this.held.remove(lease);
	}

	/** The leases held now (tests). */
	int size() {
		return this.held.size();
	}

	/** Renews every held lease now; completes when Redis has answered (tests). */
	CompletableFuture<Void> renew() {
		List<Lease.Held> permits = new ArrayList<>();
		for (Lease lease : this.held) {
			permits.addAll(lease.held());
		}
		return send(permits, true);
	}

	private void renewQuietly() {
		try {
			renew();
		}
		catch (RuntimeException ex) {
			// a periodic task that throws is never run again
		}
	}

	private CompletableFuture<Void> send(List<Lease.Held> permits, boolean renew) {
		ScriptSession current = this.session.get();
		if (permits.isEmpty() || current == null || !current.isOpen()) {
			return CompletableFuture.completedFuture(null);
		}
		try {
			List<CompletableFuture<?>> calls = new ArrayList<>();
			for (List<Lease.Held> group : bySlot(current, permits)) {
				for (int from = 0; from < group.size(); from += MAX_LEASES_PER_CALL) {
					List<Lease.Held> part = group.subList(from, Math.min(group.size(), from + MAX_LEASES_PER_CALL));
					byte[][] keys = new byte[part.size()][];
					for (int i = 0; i < keys.length; i++) {
						keys[i] = part.get(i).key();
					}
					calls.add(current.run(keys, this.script.leaseArguments(part, renew, this.now.getAsLong())));
				}
			}
			// failures are fine: a lease that is not renewed or released runs out
			return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).exceptionally((failure) -> null);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.completedFuture(null);
		}
	}

	private List<List<Lease.Held>> bySlot(ScriptSession current, List<Lease.Held> permits) {
		ToIntFunction<byte[]> slotOf = this.slots.apply(current);
		if (slotOf == null) {
			return List.of(permits);
		}
		Map<Integer, List<Lease.Held>> groups = new LinkedHashMap<>();
		for (Lease.Held permit : permits) {
			groups.computeIfAbsent(slotOf.applyAsInt(permit.key()), (slot) -> new ArrayList<>()).add(permit);
		}
		return new ArrayList<>(groups.values());
	}

	/** Stops renewing; held leases run out unless released by then. */
	@Override
	public void close() {
		this.renewer.shutdownNow();
	}

}
