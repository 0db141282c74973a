package io.github.ratelimit.storage.redis.control;

import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.control.Ban;
import io.github.ratelimit.control.BanRule;
import io.github.ratelimit.control.TooManyBansException;
import io.github.ratelimit.storage.StoreUnavailableException;

/**
 * The two Lua scripts that change bans, each atomic over the ban keys: counting a refusal
 * (which starts or doubles a ban once a subject was refused often enough) and lifting a
 * ban. Both append their change to the stream every instance reads.
 */
final class BanScripts {

	private static final String REFUSAL_SCRIPT = "META-INF/ratelimit/ban-refusal.lua";

	private static final String LIFT_SCRIPT = "META-INF/ratelimit/ban-lift.lua";

	/**
	 * More refusal counts than this in flight (Redis slow) and further ones are dropped.
	 */
	private static final int MAX_IN_FLIGHT = 1000;

	private final ControlKeys keys;

	private final int maxActiveBans;

	private final long maxBanRecords;

	private final @Nullable LongSupplier clock;

	private final byte[] script;

	private final String digest;

	private final byte[] liftScript;

	private final String liftDigest;

	private final AtomicInteger inFlight = new AtomicInteger();

	/**
	 * Loads the scripts.
	 * @param keys where the bans live
	 * @param maxActiveBans the most bans in force at once
	 * @param maxBanRecords the most ban records kept for doubling
	 * @param clock the time in ms the scripts use instead of Redis's, or {@code null}
	 */
	BanScripts(ControlKeys keys, int maxActiveBans, long maxBanRecords, @Nullable LongSupplier clock) {
		this.keys = keys;
		this.maxActiveBans = maxActiveBans;
		this.maxBanRecords = maxBanRecords;
		this.clock = clock;
		this.script = read(REFUSAL_SCRIPT);
		this.digest = ControlRecords.hex(ControlRecords.digest("SHA-1", this.script));
		this.liftScript = read(LIFT_SCRIPT);
		this.liftDigest = ControlRecords.hex(ControlRecords.digest("SHA-1", this.liftScript));
	}

	private static byte[] read(String resource) {
		try (InputStream in = BanScripts.class.getClassLoader().getResourceAsStream(resource)) {
			if (in == null) {
				throw new IllegalStateException("Missing " + resource);
			}
			return in.readAllBytes();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read " + resource, ex);
		}
	}

	/**
	 * Counts a refusal of {@code subject} without waiting; dropped (failed) while too
	 * many counts are in flight.
	 * @return the ban the refusal started, or {@code null}
	 */
	CompletableFuture<@Nullable Ban> countRefusal(RedisClusterAsyncCommands<byte[], byte[]> commands, String subject,
			BanRule rule) {
		if (this.inFlight.incrementAndGet() > MAX_IN_FLIGHT) {
			this.inFlight.decrementAndGet();
			return CompletableFuture.failedFuture(new StoreUnavailableException("too many refusal counts in flight"));
		}
		byte[][] keys = { this.keys.refusals(subject), this.keys.ban(subject), this.keys.active(), this.keys.log(),
				this.keys.records() };
		byte[][] args = { ControlRecords.bytes(subject), ControlRecords.bytes(Integer.toString(rule.refusals())),
				ControlRecords.bytes(Long.toString(rule.window().toMillis())),
				ControlRecords.bytes(Long.toString(rule.duration().toMillis())),
				ControlRecords.bytes(Long.toString(rule.maxDuration().toMillis())),
				ControlRecords.bytes(Long.toString(rule.memory().toMillis())), time(),
				ControlRecords.bytes(Integer.toString(this.maxActiveBans)),
				ControlRecords.bytes(Integer.toString(RedisControlStore.LOG_LENGTH)),
				ControlRecords.bytes(Long.toString(this.maxBanRecords)) };
		CompletableFuture<List<Object>> reply = new CompletableFuture<>();
		commands.<List<Object>>evalsha(this.digest, ScriptOutputType.MULTI, keys, args)
			.whenComplete((result, failure) -> {
				if (failure != null && String.valueOf(failure.getMessage()).startsWith("NOSCRIPT")) {
					commands.<List<Object>>eval(this.script, ScriptOutputType.MULTI, keys, args)
						.whenComplete((again, failed) -> complete(reply, again, failed));
				}
				else {
					complete(reply, result, failure);
				}
			});
		return reply.<@Nullable Ban>thenApply((result) -> {
			if (result != null && result.size() == 1) {
				throw new TooManyBansException(this.maxActiveBans);
			}
			if (result == null || result.size() < 2) {
				return null;
			}
			long until = Long.parseLong(ControlRecords.string((byte[]) result.get(0)));
			int offence = ((Long) result.get(1)).intValue();
			return new Ban(subject, Instant.ofEpochMilli(until), offence);
		}).whenComplete((ban, failure) -> this.inFlight.decrementAndGet());
	}

	/**
	 * Lifts the ban of {@code subject}, if one is in force, and forgets its refusals.
	 * @return whether a ban was in force
	 */
	boolean lift(RedisClusterCommands<byte[], byte[]> commands, String subject) {
		byte[][] keys = { this.keys.refusals(subject), this.keys.ban(subject), this.keys.active(), this.keys.log() };
		byte[][] args = { ControlRecords.bytes(subject), time(),
				ControlRecords.bytes(Integer.toString(RedisControlStore.LOG_LENGTH)) };
		Long active;
		try {
			active = commands.evalsha(this.liftDigest, ScriptOutputType.INTEGER, keys, args);
		}
		catch (RuntimeException ex) {
			if (!String.valueOf(ex.getMessage()).startsWith("NOSCRIPT")) {
				throw ex;
			}
			active = commands.eval(this.liftScript, ScriptOutputType.INTEGER, keys, args);
		}
		return active != null && active == 1;
	}

	/** The time argument: empty for Redis's own clock. */
	private byte[] time() {
		return ControlRecords.bytes((this.clock != null) ? Long.toString(this.clock.getAsLong()) : "");
	}

	private static <T> void complete(CompletableFuture<T> future, @Nullable T value, @Nullable Throwable failure) {
		if (failure != null) {
			future.completeExceptionally(failure);
		}
		else {
			future.complete(value);
		}
	}

}
