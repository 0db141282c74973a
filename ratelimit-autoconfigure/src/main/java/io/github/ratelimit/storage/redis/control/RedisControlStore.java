package io.github.ratelimit.storage.redis.control;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import io.lettuce.core.KeyValue;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScoredValueScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.Ban;
import io.github.ratelimit.control.BanChanges;
import io.github.ratelimit.control.BanRule;
import io.github.ratelimit.control.ControlState;
import io.github.ratelimit.control.ControlStore;
import io.github.ratelimit.control.LimitOverride;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.control.TooManyBansException;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.storage.StoreUnavailableException;
import io.github.ratelimit.storage.redis.connection.RedisConnector;

/**
 * Runtime control in Redis, shared by every instance. Every key carries the hash tag
 * {@code {<prefix>control}}, so on a Cluster they all live in one slot and the ban script
 * can touch several of them at once. The keys: {@code …:version} (a counter every
 * operator write increments, polled by each instance), hashes {@code …:overrides} and
 * {@code …:rules} (read whole when the version moves), and for bans, which callers start:
 * a sorted set {@code …:bans:active} of the bans in force (score: the end; at most
 * {@code maxActiveBans}), a stream {@code …:bans:log} of the last {@value #LOG_LENGTH} or
 * so bans started and lifted (each instance reads only the entries after its cursor), one
 * record per banned subject {@code …:ban:<hash>} that expires when the ban is forgotten
 * ({@code memory} after its end), at most {@link #maxBanRecords()} of them (indexed in
 * {@code …:bans:records}), and one refusal counter per subject being refused that expires
 * with its window.
 * <p>
 * The store has a connection of its own, opened on first use off the request path.
 * Operator reads and writes wait at most {@code timeout}; counting a refusal never waits,
 * and is skipped while the connection is not open or too many counts are in flight.
 */
public final class RedisControlStore implements ControlStore, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(RedisControlStore.class);

	private static final String SCRIPT = "META-INF/ratelimit/ban-refusal.lua";

	private static final String LIFT_SCRIPT = "META-INF/ratelimit/ban-lift.lua";

	/**
	 * Ban records (for doubling) kept per ban that may be in force: see
	 * {@link #maxBanRecords()}.
	 */
	static final int RECORDS_PER_ACTIVE_BAN = 2;

	/**
	 * More refusal counts than this in flight (Redis slow) and further ones are dropped.
	 */
	private static final int MAX_IN_FLIGHT = 1000;

	/**
	 * Ban changes the stream keeps, about (trimmed with {@code MAXLEN ~}): a reader
	 * further behind resyncs.
	 */
	static final int LOG_LENGTH = 10_000;

	/** Ban changes read at once, and bans in force read at once in a resync. */
	private static final int BATCH = 1000;

	/** The cursor before the first entry of a stream. */
	private static final String START = "0-0";

	private final RedisConnector connector;

	private final Duration timeout;

	private final byte[] versionKey;

	private final byte[] overridesKey;

	private final byte[] rulesKey;

	private final byte[] activeKey;

	/**
	 * A sorted set of the ban records (member: the record's key, score: when it is
	 * forgotten).
	 */
	private final byte[] recordsKey;

	private final byte[] logKey;

	private final String banPrefix;

	private final String refusalsPrefix;

	private final int maxActiveBans;

	private final byte[] script;

	private final String digest;

	private final byte[] liftScript;

	private final String liftDigest;

	private final AtomicBoolean badRecordLogged = new AtomicBoolean();

	private final AtomicInteger inFlight = new AtomicInteger();

	private final AtomicBoolean connecting = new AtomicBoolean();

	private final @Nullable LongSupplier clock;

	private volatile @Nullable StatefulConnection<byte[], byte[]> connection;

	private volatile boolean closed;

	/**
	 * Creates a store.
	 * @param connector opens the store's connection
	 * @param keyPrefix the namespace of keys ({@code ratelimit.storage.key-prefix})
	 * @param timeout how long an operator's read or write may wait for Redis
	 */
	public RedisControlStore(RedisConnector connector, String keyPrefix, Duration timeout) {
		this(connector, keyPrefix, timeout, DEFAULT_MAX_ACTIVE_BANS);
	}

	/**
	 * Creates a store.
	 * @param connector opens the store's connection
	 * @param keyPrefix the namespace of keys ({@code ratelimit.storage.key-prefix})
	 * @param timeout how long an operator's read or write may wait for Redis
	 * @param maxActiveBans the most bans in force at once
	 * ({@code ratelimit.bans.max-active})
	 */
	public RedisControlStore(RedisConnector connector, String keyPrefix, Duration timeout, int maxActiveBans) {
		this(connector, keyPrefix, timeout, maxActiveBans, null);
	}

	/**
	 * Creates a store for tests.
	 * @param clock the time in ms that bans and expiries use instead of Redis's and the
	 * system's, or {@code null}
	 */
	RedisControlStore(RedisConnector connector, String keyPrefix, Duration timeout, @Nullable LongSupplier clock) {
		this(connector, keyPrefix, timeout, DEFAULT_MAX_ACTIVE_BANS, clock);
	}

	RedisControlStore(RedisConnector connector, String keyPrefix, Duration timeout, int maxActiveBans,
			@Nullable LongSupplier clock) {
		if (maxActiveBans < 1) {
			throw new IllegalArgumentException("maxActiveBans must be at least 1");
		}
		this.clock = clock;
		this.connector = connector;
		this.timeout = timeout;
		this.maxActiveBans = maxActiveBans;
		String tag = "{" + keyPrefix + "control}:";
		this.versionKey = ControlRecords.bytes(tag + "version");
		this.overridesKey = ControlRecords.bytes(tag + "overrides");
		this.rulesKey = ControlRecords.bytes(tag + "rules");
		this.activeKey = ControlRecords.bytes(tag + "bans:active");
		this.logKey = ControlRecords.bytes(tag + "bans:log");
		this.recordsKey = ControlRecords.bytes(tag + "bans:records");
		this.banPrefix = tag + "ban:";
		this.refusalsPrefix = tag + "refusals:";
		this.script = read(SCRIPT);
		this.digest = ControlRecords.hex(ControlRecords.digest("SHA-1", this.script));
		this.liftScript = read(LIFT_SCRIPT);
		this.liftDigest = ControlRecords.hex(ControlRecords.digest("SHA-1", this.liftScript));
	}

	/**
	 * The most ban records kept for doubling: {@value #RECORDS_PER_ACTIVE_BAN} times
	 * {@code maxActiveBans}. A record outlives its ban by {@code memory}, so without a
	 * bound short bans from rotating addresses would pile up records; beyond it the
	 * records forgotten soonest go first (their subjects' next ban is a first one again).
	 */
	long maxBanRecords() {
		return (long) this.maxActiveBans * RECORDS_PER_ACTIVE_BAN;
	}

	private static byte[] read(String resource) {
		try (InputStream in = RedisControlStore.class.getClassLoader().getResourceAsStream(resource)) {
			if (in == null) {
				throw new IllegalStateException("Missing " + resource);
			}
			return in.readAllBytes();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read " + resource, ex);
		}
	}

	@Override
	public long version() {
		byte[] value = sync().get(this.versionKey);
		return (value != null) ? Long.parseLong(ControlRecords.string(value)) : 0;
	}

	@Override
	public ControlState load() {
		RedisClusterCommands<byte[], byte[]> commands = sync();
		long now = now();
		List<LimitOverride> overrides = new ArrayList<>();
		List<byte[]> expiredOverrides = new ArrayList<>();
		commands.hgetall(this.overridesKey).forEach((field, value) -> {
			LimitOverride override = ControlRecords.override(ControlRecords.string(field),
					ControlRecords.string(value));
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
			AccessRule rule = ControlRecords.rule(ControlRecords.string(field), ControlRecords.string(value));
			if (rule == null || rule.expired(now)) {
				expiredRules.add(field);
			}
			else {
				rules.add(rule);
			}
		});
		// expired entries go without a version change: every instance skips them by their
		// expiry anyway
		if (!expiredOverrides.isEmpty()) {
			commands.hdel(this.overridesKey, expiredOverrides.toArray(new byte[0][]));
		}
		if (!expiredRules.isEmpty()) {
			commands.hdel(this.rulesKey, expiredRules.toArray(new byte[0][]));
		}
		return new ControlState(overrides, rules);
	}

	@Override
	public int maxActiveBans() {
		return this.maxActiveBans;
	}

	@Override
	public BanChanges banChanges(@Nullable String cursor) {
		RedisClusterCommands<byte[], byte[]> commands = sync();
		if (cursor == null) {
			return resync(commands);
		}
		// from the cursor, inclusive: an answer that does not start with it means the
		// stream was trimmed past
		// it (or lost), and the changes in between are gone
		List<StreamMessage<byte[], byte[]>> messages = commands.xrange(this.logKey,
				Range.from(Range.Boundary.including(cursor), Range.Boundary.unbounded()), Limit.from(BATCH + 1));
		List<BanChanges.Change> changes = new ArrayList<>();
		if (cursor.equals(START)) {
			// nothing was read yet: only a stream that was never trimmed holds every
			// change since
			if (!messages.isEmpty() && commands.xlen(this.logKey) >= LOG_LENGTH) {
				return resync(commands);
			}
		}
		else if (messages.isEmpty() || !messages.get(0).getId().equals(cursor)) {
			return resync(commands);
		}
		else {
			messages = messages.subList(1, messages.size());
		}
		String next = cursor;
		for (StreamMessage<byte[], byte[]> message : messages) {
			next = message.getId();
			BanChanges.Change change = change(message);
			if (change != null) {
				changes.add(change);
			}
		}
		return new BanChanges(next, false, changes);
	}

	/**
	 * Every ban in force, in pages, read after the stream's last id so that no change
	 * falls in between.
	 */
	private BanChanges resync(RedisClusterCommands<byte[], byte[]> commands) {
		List<StreamMessage<byte[], byte[]>> last = commands.xrevrange(this.logKey, Range.unbounded(), Limit.from(1));
		String cursor = last.isEmpty() ? START : last.get(0).getId();
		long now = now();
		List<BanChanges.Change> bans = new ArrayList<>();
		// ZSCAN returns every member that stays in the set throughout the scan: one that
		// leaves it meanwhile
		// is lifted or over, and a lift is in the stream after the cursor
		ScoredValueScanCursor<byte[]> scan = commands.zscan(this.activeKey, ScanArgs.Builder.limit(BATCH));
		while (true) {
			List<ScoredValue<byte[]>> page = new ArrayList<>();
			for (ScoredValue<byte[]> value : scan.getValues()) {
				if (value.getScore() > now && bans.size() + page.size() < this.maxActiveBans) {
					page.add(value);
				}
			}
			bans.addAll(withOffences(commands, page));
			if (scan.isFinished() || bans.size() >= this.maxActiveBans) {
				break;
			}
			scan = commands.zscan(this.activeKey, scan, ScanArgs.Builder.limit(BATCH));
		}
		return new BanChanges(cursor, true, bans);
	}

	private List<BanChanges.Change> withOffences(RedisClusterCommands<byte[], byte[]> commands,
			List<ScoredValue<byte[]>> page) {
		if (page.isEmpty()) {
			return List.of();
		}
		byte[][] keys = new byte[page.size()][];
		for (int i = 0; i < page.size(); i++) {
			keys[i] = banKey(ControlRecords.string(page.get(i).getValue()));
		}
		List<KeyValue<byte[], byte[]>> records = commands.mget(keys);
		List<BanChanges.Change> bans = new ArrayList<>(page.size());
		for (int i = 0; i < page.size(); i++) {
			String subject = ControlRecords.string(page.get(i).getValue());
			int offence = 1;
			KeyValue<byte[], byte[]> record = (i < records.size()) ? records.get(i) : null;
			if (record != null && record.hasValue()) {
				// the offence is for display and doubling only: a bad record shows 1
				// rather than stop the read
				String[] parts = ControlRecords.string(record.getValue()).split(":");
				try {
					offence = (parts.length == 3) ? Math.max(1, Integer.parseInt(parts[1])) : 1;
				}
				catch (NumberFormatException ex) {
					offence = 1;
				}
			}
			bans.add(BanChanges.Change
				.started(new Ban(subject, Instant.ofEpochMilli((long) page.get(i).getScore()), offence)));
		}
		return bans;
	}

	/**
	 * One stream entry; a bad one is skipped (and said once), so it never stops the
	 * changes after it.
	 */
	private BanChanges.@Nullable Change change(StreamMessage<byte[], byte[]> message) {
		String subject = null;
		String until = null;
		String offence = null;
		for (Map.Entry<byte[], byte[]> field : message.getBody().entrySet()) {
			switch (ControlRecords.string(field.getKey())) {
				case "s" -> subject = ControlRecords.string(field.getValue());
				case "u" -> until = ControlRecords.string(field.getValue());
				case "o" -> offence = ControlRecords.string(field.getValue());
				default -> {
				}
			}
		}
		try {
			if (subject == null || until == null || offence == null) {
				throw new IllegalArgumentException("missing fields");
			}
			int number = Integer.parseInt(offence);
			if (number == 0) {
				return BanChanges.Change.lifted(subject);
			}
			return BanChanges.Change.started(new Ban(subject, Instant.ofEpochMilli(Long.parseLong(until)), number));
		}
		catch (IllegalArgumentException ex) {
			if (this.badRecordLogged.compareAndSet(false, true)) {
				logger.warn("Skipping a ban change that cannot be read ({} in {}); logged once", message.getId(),
						ControlRecords.string(this.logKey));
			}
			return null;
		}
	}

	@Override
	public void putOverride(LimitOverride override) {
		RedisClusterCommands<byte[], byte[]> commands = sync();
		commands.hset(this.overridesKey,
				ControlRecords
					.bytes(ControlRecords.overrideField(override.dimension(), override.group(), override.id())),
				ControlRecords.bytes(override.limit() + "\n" + ControlRecords.millis(override.expiresAt())));
		commands.incr(this.versionKey);
	}

	@Override
	public boolean deleteOverride(Dimension dimension, String id, String group) {
		RedisClusterCommands<byte[], byte[]> commands = sync();
		boolean deleted = commands.hdel(this.overridesKey,
				ControlRecords.bytes(ControlRecords.overrideField(dimension, group, id))) > 0;
		commands.incr(this.versionKey);
		return deleted;
	}

	@Override
	public void putRule(AccessRule rule) {
		RedisClusterCommands<byte[], byte[]> commands = sync();
		commands.hset(this.rulesKey, ControlRecords.bytes(rule.subject().toString()),
				ControlRecords.bytes(rule.access().name() + "\n" + ((rule.tier() != null) ? rule.tier() : "") + "\n"
						+ ControlRecords.millis(rule.expiresAt())));
		commands.incr(this.versionKey);
	}

	@Override
	public boolean deleteRule(Subject subject) {
		RedisClusterCommands<byte[], byte[]> commands = sync();
		boolean deleted = commands.hdel(this.rulesKey, ControlRecords.bytes(subject.toString())) > 0;
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
		byte[][] keys = { ControlRecords.bytes(this.refusalsPrefix + ControlRecords.hashed(subject)), banKey(subject),
				this.activeKey, this.logKey, this.recordsKey };
		byte[][] args = { ControlRecords.bytes(subject), ControlRecords.bytes(Integer.toString(rule.refusals())),
				ControlRecords.bytes(Long.toString(rule.window().toMillis())),
				ControlRecords.bytes(Long.toString(rule.duration().toMillis())),
				ControlRecords.bytes(Long.toString(rule.maxDuration().toMillis())),
				ControlRecords.bytes(Long.toString(rule.memory().toMillis())),
				ControlRecords.bytes((this.clock != null) ? Long.toString(this.clock.getAsLong()) : ""),
				ControlRecords.bytes(Integer.toString(this.maxActiveBans)),
				ControlRecords.bytes(Integer.toString(LOG_LENGTH)),
				ControlRecords.bytes(Long.toString(maxBanRecords())) };
		RedisClusterAsyncCommands<byte[], byte[]> commands = async(open);
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

	@Override
	public boolean liftBan(String subject) {
		RedisClusterCommands<byte[], byte[]> commands = sync();
		byte[][] keys = { ControlRecords.bytes(this.refusalsPrefix + ControlRecords.hashed(subject)), banKey(subject),
				this.activeKey, this.logKey };
		byte[][] args = { ControlRecords.bytes(subject),
				ControlRecords.bytes((this.clock != null) ? Long.toString(this.clock.getAsLong()) : ""),
				ControlRecords.bytes(Integer.toString(LOG_LENGTH)) };
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

	private byte[] banKey(String subject) {
		return ControlRecords.bytes(this.banPrefix + ControlRecords.hashed(subject));
	}

	private long now() {
		return (this.clock != null) ? this.clock.getAsLong() : System.currentTimeMillis();
	}

	// not synchronized: a refresh connecting under the monitor (a connect may wait in
	// Lettuce for seconds) must
	// not hold up the context's shutdown; a connect that completes after this closes its
	// own connection
	@Override
	public void close() {
		this.closed = true;
		StatefulConnection<byte[], byte[]> open = this.connection;
		this.connection = null;
		// at shutdown Boot's connection factory has usually closed its client, and with
		// it this connection
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
		if (this.closed) {
			throw new StoreUnavailableException("The runtime control store is closed");
		}
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
		if (this.closed) {
			this.connection = null;
			open.close();
			throw new StoreUnavailableException("The runtime control store is closed");
		}
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

}
