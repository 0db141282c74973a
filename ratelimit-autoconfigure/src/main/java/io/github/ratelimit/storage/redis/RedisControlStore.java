package io.github.ratelimit.storage.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.Ban;
import io.github.ratelimit.control.BanRule;
import io.github.ratelimit.control.ControlState;
import io.github.ratelimit.control.ControlStore;
import io.github.ratelimit.control.LimitOverride;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.storage.StoreUnavailableException;

/**
 * Runtime control in Redis, shared by every instance. Every key carries the hash tag
 * {@code {<prefix>control}}, so on a Cluster they all live in one slot and the ban script can touch
 * several of them at once. The keys: {@code …:version} (a counter every write increments, polled by each
 * instance), hashes {@code …:overrides}, {@code …:rules} and {@code …:bans}, and one short-lived refusal
 * counter per subject that is being refused.
 * <p>
 * The store has a connection of its own, opened on first use off the request path. Operator reads and
 * writes wait at most {@code timeout}; counting a refusal never waits, and is skipped while the
 * connection is not open or too many counts are in flight.
 */
public final class RedisControlStore implements ControlStore, AutoCloseable {

	private static final String SCRIPT = "META-INF/ratelimit/ban-refusal.lua";

	/** More refusal counts than this in flight (Redis slow) and further ones are dropped. */
	private static final int MAX_IN_FLIGHT = 1000;

	private final RedisConnector connector;

	private final Duration timeout;

	private final byte[] versionKey;

	private final byte[] overridesKey;

	private final byte[] rulesKey;

	private final byte[] bansKey;

	private final String refusalsPrefix;

	private final byte[] script;

	private final String digest;

	private final AtomicInteger inFlight = new AtomicInteger();

	private final java.util.concurrent.atomic.AtomicBoolean connecting = new java.util.concurrent.atomic.AtomicBoolean();

	private final @Nullable LongSupplier clock;

	private volatile @Nullable StatefulConnection<byte[], byte[]> connection;

	/**
	 * Creates a store.
	 * @param connector opens the store's connection
	 * @param keyPrefix the namespace of keys ({@code ratelimit.storage.key-prefix})
	 * @param timeout how long an operator's read or write may wait for Redis
	 */
	public RedisControlStore(RedisConnector connector, String keyPrefix, Duration timeout) {
		this(connector, keyPrefix, timeout, null);
	}

	/**
	 * Creates a store for tests.
	 * @param clock the time in ms that bans and expiries use instead of Redis's and the system's, or
	 * {@code null}
	 */
	RedisControlStore(RedisConnector connector, String keyPrefix, Duration timeout, @Nullable LongSupplier clock) {
		this.clock = clock;
		this.connector = connector;
		this.timeout = timeout;
		String tag = "{" + keyPrefix + "control}:";
		this.versionKey = bytes(tag + "version");
		this.overridesKey = bytes(tag + "overrides");
		this.rulesKey = bytes(tag + "rules");
		this.bansKey = bytes(tag + "bans");
		this.refusalsPrefix = tag + "refusals:";
		try (InputStream in = RedisControlStore.class.getClassLoader().getResourceAsStream(SCRIPT)) {
			if (in == null) {
				throw new IllegalStateException("Missing " + SCRIPT);
			}
			this.script = in.readAllBytes();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read " + SCRIPT, ex);
		}
		this.digest = hex(digest("SHA-1", this.script));
	}

	@Override
	public long version() {
		byte[] value = sync().get(this.versionKey);
		return (value != null) ? Long.parseLong(string(value)) : 0;
	}

	@Override
	public ControlState load() {
		RedisClusterCommands<byte[], byte[]> commands = sync();
		long now = now();
		List<LimitOverride> overrides = new ArrayList<>();
		List<byte[]> expiredOverrides = new ArrayList<>();
		commands.hgetall(this.overridesKey).forEach((field, value) -> {
			LimitOverride override = override(string(field), string(value));
			if (override == null || override.expired(now)) {
				expiredOverrides.add(field);
			}
			else {
				overrides.add(override);
			}
		});
		List<AccessRule> rules = new ArrayList<>();
		List<byte[]> expiredRules = new ArrayList<>();
		commands.hgetall(this.rulesKey).forEach((field, value) -> {
			AccessRule rule = rule(string(field), string(value));
			if (rule == null || rule.expired(now)) {
				expiredRules.add(field);
			}
			else {
				rules.add(rule);
			}
		});
		Map<String, Ban> bans = new HashMap<>();
		List<byte[]> forgotten = new ArrayList<>();
		commands.hgetall(this.bansKey).forEach((field, value) -> {
			String[] parts = string(value).split(":");
			if (parts.length != 3) {
				forgotten.add(field);
				return;
			}
			long until = Long.parseLong(parts[0]);
			if (Long.parseLong(parts[2]) <= now) {
				forgotten.add(field);
			}
			else if (until > now) {
				String subject = string(field);
				bans.put(subject, new Ban(subject, Instant.ofEpochMilli(until), Integer.parseInt(parts[1])));
			}
		});
		// expired entries go without a version change: every instance skips them by their expiry anyway
		if (!expiredOverrides.isEmpty()) {
			commands.hdel(this.overridesKey, expiredOverrides.toArray(new byte[0][]));
		}
		if (!expiredRules.isEmpty()) {
			commands.hdel(this.rulesKey, expiredRules.toArray(new byte[0][]));
		}
		if (!forgotten.isEmpty()) {
			commands.hdel(this.bansKey, forgotten.toArray(new byte[0][]));
		}
		return new ControlState(overrides, rules, bans);
	}

	@Override
	public void putOverride(LimitOverride override) {
		RedisClusterCommands<byte[], byte[]> commands = sync();
		commands.hset(this.overridesKey, bytes(overrideField(override.dimension(), override.group(), override.id())),
				bytes(override.limit() + "\n" + millis(override.expiresAt())));
		commands.incr(this.versionKey);
	}

	@Override
	public boolean deleteOverride(Dimension dimension, String id, String group) {
		RedisClusterCommands<byte[], byte[]> commands = sync();
		boolean deleted = commands.hdel(this.overridesKey, bytes(overrideField(dimension, group, id))) > 0;
		commands.incr(this.versionKey);
		return deleted;
	}

	@Override
	public void putRule(AccessRule rule) {
		RedisClusterCommands<byte[], byte[]> commands = sync();
		commands.hset(this.rulesKey, bytes(rule.subject().toString()), bytes(rule.access().name() + "\n"
				+ ((rule.tier() != null) ? rule.tier() : "") + "\n" + millis(rule.expiresAt())));
		commands.incr(this.versionKey);
	}

	@Override
	public boolean deleteRule(Subject subject) {
		RedisClusterCommands<byte[], byte[]> commands = sync();
		boolean deleted = commands.hdel(this.rulesKey, bytes(subject.toString())) > 0;
		commands.incr(this.versionKey);
		return deleted;
	}

	@Override
	public CompletableFuture<@Nullable Ban> recordRefusal(String subject, BanRule rule) {
		StatefulConnection<byte[], byte[]> open = this.connection;
		if (open == null || !open.isOpen()) {
			// never connect on a request's way: in the background, for the next refusal
			connectInBackground();
			return CompletableFuture.failedFuture(new StoreUnavailableException("control store not connected"));
		}
		if (this.inFlight.incrementAndGet() > MAX_IN_FLIGHT) {
			this.inFlight.decrementAndGet();
			return CompletableFuture.failedFuture(new StoreUnavailableException("too many refusal counts in flight"));
		}
		byte[][] keys = { bytes(this.refusalsPrefix + hashed(subject)), this.bansKey, this.versionKey };
		byte[][] args = { bytes(subject), bytes(Integer.toString(rule.refusals())),
				bytes(Long.toString(rule.window().toMillis())), bytes(Long.toString(rule.duration().toMillis())),
				bytes(Long.toString(rule.maxDuration().toMillis())), bytes(Long.toString(rule.memory().toMillis())),
				bytes((this.clock != null) ? Long.toString(this.clock.getAsLong()) : "") };
		RedisClusterAsyncCommands<byte[], byte[]> commands = async(open);
		CompletableFuture<List<Object>> reply = new CompletableFuture<>();
		commands.<List<Object>>evalsha(this.digest, ScriptOutputType.MULTI, keys, args).whenComplete((result, failure) -> {
			if (failure != null && String.valueOf(failure.getMessage()).startsWith("NOSCRIPT")) {
				commands.<List<Object>>eval(this.script, ScriptOutputType.MULTI, keys, args)
					.whenComplete((again, failed) -> complete(reply, again, failed));
			}
			else {
				complete(reply, result, failure);
			}
		});
		return reply.<@Nullable Ban>thenApply((result) -> {
			if (result == null || result.size() < 2) {
				return null;
			}
			long until = Long.parseLong(string((byte[]) result.get(0)));
			int offence = ((Long) result.get(1)).intValue();
			return new Ban(subject, Instant.ofEpochMilli(until), offence);
		}).whenComplete((ban, failure) -> this.inFlight.decrementAndGet());
	}

	@Override
	public boolean liftBan(String subject) {
		RedisClusterCommands<byte[], byte[]> commands = sync();
		byte[] field = bytes(subject);
		byte[] found = commands.hget(this.bansKey, field);
		commands.del(bytes(this.refusalsPrefix + hashed(subject)));
		String[] parts = (found != null) ? string(found).split(":") : new String[0];
		long now = now();
		boolean active = parts.length == 3 && Long.parseLong(parts[0]) > now;
		if (active) {
			// ended now; the offence is remembered as long as it would have been, so a repeat still doubles
			commands.hset(this.bansKey, field, bytes(now + ":" + parts[1] + ":" + parts[2]));
		}
		commands.incr(this.versionKey);
		return active;
	}

	private long now() {
		return (this.clock != null) ? this.clock.getAsLong() : System.currentTimeMillis();
	}

	@Override
	public synchronized void close() {
		StatefulConnection<byte[], byte[]> open = this.connection;
		this.connection = null;
		// at shutdown Boot's connection factory has usually closed its client, and with it this connection
		if (open != null && open.isOpen()) {
			open.close();
		}
	}

	// ---- connection

	private void connectInBackground() {
		if (this.connecting.compareAndSet(false, true)) {
			Thread thread = new Thread(() -> {
				try {
					connection();
				}
				catch (RuntimeException ex) {
					// the refresh says so; the next refusal tries again
				}
				finally {
					this.connecting.set(false);
				}
			}, "ratelimit-control-connect");
			thread.setDaemon(true);
			thread.start();
		}
	}

	private synchronized StatefulConnection<byte[], byte[]> connection() {
		StatefulConnection<byte[], byte[]> open = this.connection;
		if (open != null && open.isOpen()) {
			return open;
		}
		if (open != null) {
			open.close();
		}
		try {
			open = this.connector.connect();
		}
		catch (RuntimeException ex) {
			throw new StoreUnavailableException("Cannot connect to Redis for the runtime control state", ex);
		}
		open.setTimeout(this.timeout);
		this.connection = open;
		return open;
	}

	@SuppressWarnings("unchecked")
	private RedisClusterCommands<byte[], byte[]> sync() {
		StatefulConnection<byte[], byte[]> open = connection();
		if (open instanceof StatefulRedisClusterConnection<?, ?> cluster) {
			return ((StatefulRedisClusterConnection<byte[], byte[]>) cluster).sync();
		}
		return ((StatefulRedisConnection<byte[], byte[]>) open).sync();
	}

	@SuppressWarnings("unchecked")
	private static RedisClusterAsyncCommands<byte[], byte[]> async(StatefulConnection<byte[], byte[]> open) {
		if (open instanceof StatefulRedisClusterConnection<?, ?> cluster) {
			return ((StatefulRedisClusterConnection<byte[], byte[]>) cluster).async();
		}
		return ((StatefulRedisConnection<byte[], byte[]>) open).async();
	}

	private static <T> void complete(CompletableFuture<T> future, @Nullable T value, @Nullable Throwable failure) {
		if (failure != null) {
			future.completeExceptionally(failure);
		}
		else {
			future.complete(value);
		}
	}

	// ---- encoding: fields and values are joined by newlines, which no id, limit or tier holds

	private static String overrideField(Dimension dimension, String group, String id) {
		return dimension.key() + "\n" + group + "\n" + id;
	}

	private static @Nullable LimitOverride override(String field, String value) {
		String[] key = field.split("\n", 3);
		String[] parts = value.split("\n", -1);
		Dimension dimension = (key.length == 3) ? Dimension.fromKey(key[0]) : null;
		if (dimension == null || parts.length != 2) {
			return null;
		}
		return new LimitOverride(dimension, key[2], key[1], parts[0], instant(parts[1]));
	}

	private static @Nullable AccessRule rule(String field, String value) {
		String[] parts = value.split("\n", -1);
		if (parts.length != 3) {
			return null;
		}
		try {
			return new AccessRule(AccessRule.Access.valueOf(parts[0]), Subject.parse(field),
					parts[1].isEmpty() ? null : parts[1], instant(parts[2]));
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	private static String millis(@Nullable Instant instant) {
		return (instant != null) ? Long.toString(instant.toEpochMilli()) : "";
	}

	private static @Nullable Instant instant(String millis) {
		return millis.isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(millis));
	}

	// a subject may be long and hold anything a user name holds: its counter key holds a hash of it
	private static String hashed(String subject) {
		return Base64.getUrlEncoder().withoutPadding().encodeToString(digest("SHA-256", bytes(subject))).substring(0, 22);
	}

	private static byte[] digest(String algorithm, byte[] bytes) {
		try {
			return MessageDigest.getInstance(algorithm).digest(bytes);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String hex(byte[] bytes) {
		return HexFormat.of().formatHex(bytes);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static String string(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}

}
