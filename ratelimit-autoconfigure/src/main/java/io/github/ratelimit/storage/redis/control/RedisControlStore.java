package io.github.ratelimit.storage.redis.control;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.Ban;
import io.github.ratelimit.control.BanChanges;
import io.github.ratelimit.control.BanRule;
import io.github.ratelimit.control.ControlState;
import io.github.ratelimit.control.ControlStore;
import io.github.ratelimit.control.LimitOverride;
import io.github.ratelimit.control.Subject;
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

	/**
	 * Ban records (for doubling) kept per ban that may be in force: see
	 * {@link #maxBanRecords()}.
	 */
	static final int RECORDS_PER_ACTIVE_BAN = 2;

	/**
	 * Ban changes the stream keeps, about (trimmed with {@code MAXLEN ~}): a reader
	 * further behind resyncs.
	 */
	static final int LOG_LENGTH = 10_000;

	private final RedisConnector connector;

	private final Duration timeout;

	private final int maxActiveBans;

	private final ControlStateReader stateReader;

	private final ControlStateWriter stateWriter;

	private final BanChangeReader banChanges;

	private final BanScripts banScripts;

	private final AtomicBoolean connecting = new AtomicBoolean();

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
		this.connector = connector;
		this.timeout = timeout;
		this.maxActiveBans = maxActiveBans;
		ControlKeys keys = new ControlKeys(keyPrefix);
		LongSupplier now = (clock != null) ? clock : System::currentTimeMillis;
		this.stateReader = new ControlStateReader(keys, now);
		this.stateWriter = new ControlStateWriter(keys);
		this.banChanges = new BanChangeReader(keys, maxActiveBans, now);
		this.banScripts = new BanScripts(keys, maxActiveBans, maxBanRecords(), clock);
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

	@Override
	public long version() {
		return this.stateReader.version(sync());
	}

	@Override
	public ControlState load() {
		return this.stateReader.load(sync());
	}

	@Override
	public int maxActiveBans() {
		return this.maxActiveBans;
	}

	@Override
	public BanChanges banChanges(@Nullable String cursor) {
		return this.banChanges.banChanges(sync(), cursor);
	}

	@Override
	public void putOverride(LimitOverride override) {
		this.stateWriter.putOverride(sync(), override);
	}

	@Override
	public boolean deleteOverride(Dimension dimension, String id, String group) {
		return this.stateWriter.deleteOverride(sync(), dimension, id, group);
	}

	@Override
	public void putRule(AccessRule rule) {
		this.stateWriter.putRule(sync(), rule);
	}

	@Override
	public boolean deleteRule(Subject subject) {
		return this.stateWriter.deleteRule(sync(), subject);
	}

	@Override
	public CompletableFuture<@Nullable Ban> recordRefusal(String subject, BanRule rule) {
		StatefulConnection<byte[], byte[]> open = this.connection;
		if (open == null || !open.isOpen()) {
			// never connect on a request's way: in the background, for the next refusal
			connectInBackground();
			return CompletableFuture.failedFuture(new StoreUnavailableException("control store not connected"));
		}
		return this.banScripts.countRefusal(async(open), subject, rule);
	}

	@Override
	public boolean liftBan(String subject) {
		return this.banScripts.lift(sync(), subject);
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

}
