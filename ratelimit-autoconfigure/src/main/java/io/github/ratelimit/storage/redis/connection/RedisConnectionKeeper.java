package io.github.ratelimit.storage.redis.connection;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;

import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the store's connection without making a request wait for a lost one. The first
 * connect happens in the background on {@link #start()} (or on first use), so the
 * application starts while Redis is down; until a connection is open, {@link #session()}
 * answers {@code null} at once, and {@link #firstConnect()} lets a fresh instance's first
 * decisions wait for a first connect under way (a cold JVM takes a while to open it, and
 * the decisions that arrive meanwhile are no outage).
 * <p>
 * A connection that drops is reconnected by Lettuce, but Lettuce backs off up to 30 s
 * between attempts, and a client built without auto-reconnect never comes back. So once a
 * connection has been down for {@code retryInterval}, a fresh one is opened in the
 * background (at most one attempt per interval) and replaces it: enforcement resumes
 * within about {@code retryInterval} of Redis returning.
 * <p>
 * Once started, the keeper also looks at its connection every {@code retryInterval} by
 * itself: a connect that failed is tried again, a lost connection replaced, and a connect
 * that hangs said, whether or not requests arrive (health reads only
 * {@link #isConnected()}). {@link #stop()} closes the connection until the next start.
 */
public final class RedisConnectionKeeper<S extends RedisSession> implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(RedisConnectionKeeper.class);

	/** How often a store that has never connected says so again. */
	static final long NEVER_CONNECTED_WARNING_INTERVAL_NANOS = 60_000_000_000L;

	/**
	 * A connect under way for longer than this is stuck (Lettuce's own connect timeout is
	 * 10 s): said, so that a store that never connects is never silent.
	 */
	static final long STUCK_CONNECT_NANOS = 15_000_000_000L;

	private final RedisConnector connector;

	private final Function<StatefulConnection<byte[], byte[]>, S> sessions;

	private final Duration commandTimeout;

	private final long retryIntervalNanos;

	private final LongSupplier nanoTime;

	/**
	 * Two threads: the connect under way, and the look at the connection beside a connect
	 * that hangs.
	 */
	private final ScheduledThreadPoolExecutor executor;

	/** The look at the connection every retry interval while started. */
	private @Nullable ScheduledFuture<?> watch;

	/** Whether stopped (until started again): no connect, no session. */
	private volatile boolean stopped;

	private final AtomicBoolean connecting = new AtomicBoolean();

	private volatile @Nullable S session;

	private volatile boolean attempted;

	private volatile long lastAttemptNanos;

	/** When the current session was first seen down; {@code 0} while it is up. */
	private volatile long downSinceNanos;

	private volatile boolean failing;

	private volatile boolean everConnected;

	private volatile long failingSinceNanos;

	private volatile long lastWarningNanos;

	private volatile boolean closed;

	private final AtomicLong lastStuckWarningNanos = new AtomicLong();

	/**
	 * Completes with the session of the connect under way, or {@code null} when the
	 * attempt failed.
	 */
	private volatile CompletableFuture<@Nullable S> attempt = CompletableFuture.completedFuture(null);

	public RedisConnectionKeeper(RedisConnector connector, Function<StatefulConnection<byte[], byte[]>, S> sessions,
			Duration commandTimeout, Duration retryInterval, LongSupplier nanoTime) {
		this.connector = connector;
		this.sessions = sessions;
		this.commandTimeout = commandTimeout;
		this.retryIntervalNanos = retryInterval.toNanos();
		this.nanoTime = nanoTime;
		this.executor = new ScheduledThreadPoolExecutor(2, (task) -> {
			Thread thread = new Thread(task, "ratelimit-redis-connect");
			thread.setDaemon(true);
			return thread;
		});
		this.executor.setRemoveOnCancelPolicy(true);
	}

	/**
	 * Starts connecting in the background, if not connected or connecting already, and
	 * looks at the connection every retry interval from then on (until {@link #stop()}).
	 */
	public synchronized void start() {
		if (this.closed) {
			return;
		}
		this.stopped = false;
		if (this.watch == null) {
			try {
				this.watch = this.executor.scheduleWithFixedDelay(this::watch, this.retryIntervalNanos,
						this.retryIntervalNanos, TimeUnit.NANOSECONDS);
			}
			catch (RejectedExecutionException ex) {
				// closed meanwhile
				return;
			}
		}
		// a start is no request: connect now rather than after the last attempt's
		// interval
		this.attempted = false;
		session();
	}

	/**
	 * Stops looking at the connection and closes it, without waiting for a connect under
	 * way (whose connection is closed when it opens); {@link #start()} connects again.
	 */
	public synchronized void stop() {
		this.stopped = true;
		ScheduledFuture<?> current = this.watch;
		this.watch = null;
		if (current != null) {
			current.cancel(false);
		}
		closeSession();
	}

	private void watch() {
		try {
			session();
		}
		catch (RuntimeException ex) {
			// never ends the watch
			logger.debug("Could not look at the Redis connection for rate limiting", ex);
		}
	}

	/**
	 * The session of an open connection, or {@code null} when there is none right now (a
	 * connect is then under way or due). Never blocks.
	 */
	public @Nullable S session() {
		S current = this.session;
		if (current != null && current.isOpen()) {
			if (this.downSinceNanos != 0) {
				this.downSinceNanos = 0;
			}
			return current;
		}
		long now = this.nanoTime.getAsLong();
		if (current != null && this.downSinceNanos == 0) {
			// give Lettuce's own reconnect a chance first: a short blip needs no new
			// connection
			this.downSinceNanos = now;
		}
		if (connectIsDue(current, now)) {
			connectInBackground(now);
		}
		else if (this.connecting.get()) {
			warnIfStuck(now);
		}
		return null;
	}

	// a connect that neither opens nor fails (a thread dump of ratelimit-redis-connect
	// shows
	// where it waits) leaves every decision to the failure mode: say so, once a minute
	private void warnIfStuck(long now) {
		long started = this.lastAttemptNanos;
		long last = this.lastStuckWarningNanos.get();
		if (now - started >= STUCK_CONNECT_NANOS && (last == 0 || now - last >= NEVER_CONNECTED_WARNING_INTERVAL_NANOS)
				&& this.lastStuckWarningNanos.compareAndSet(last, now)) {
			logger.warn("A connect to Redis for rate limiting has been under way for {} s without opening or failing; "
					+ "requests get the storage failure mode meanwhile", (now - started) / 1_000_000_000L);
		}
	}

	/**
	 * While the store has never been connected and a connect is under way, the session
	 * that connect opens (or {@code null} when it fails); otherwise {@code null}: a
	 * connection that is lost is an outage, not a start.
	 */
	public @Nullable CompletableFuture<@Nullable S> firstConnect() {
		CompletableFuture<@Nullable S> current = this.attempt;
		return (!this.everConnected && !current.isDone()) ? current : null;
	}

	/** Whether a connect is under way (tests). */
	public boolean isConnecting() {
		return this.connecting.get();
	}

	/** Whether an open connection is available now. */
	public boolean isConnected() {
		S current = this.session;
		return current != null && current.isOpen();
	}

	private boolean connectIsDue(@Nullable S current, long now) {
		if (this.closed || this.stopped || this.connecting.get()) {
			return false;
		}
		if (current != null && now - this.downSinceNanos < this.retryIntervalNanos) {
			return false;
		}
		return !this.attempted || now - this.lastAttemptNanos >= this.retryIntervalNanos;
	}

	private void connectInBackground(long now) {
		if (!this.connecting.compareAndSet(false, true)) {
			return;
		}
		this.attempted = true;
		this.lastAttemptNanos = now;
		CompletableFuture<@Nullable S> opened = new CompletableFuture<>();
		this.attempt = opened;
		try {
			this.executor.execute(() -> connect(opened));
		}
		catch (RejectedExecutionException ex) {
			// closed meanwhile
			this.connecting.set(false);
			opened.complete(null);
		}
	}

	private void connect(CompletableFuture<@Nullable S> opened) {
		try {
			StatefulConnection<byte[], byte[]> connection = this.connector.connect();
			// our own connection: a short timeout here leaves the application's shared
			// client alone
			connection.setTimeout(this.commandTimeout);
			if (connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster) {
				openMasterConnections(cluster);
			}
			install(this.sessions.apply(connection));
		}
		catch (RuntimeException ex) {
			long now = this.nanoTime.getAsLong();
			if (this.closed || this.stopped) {
				// the store was closed or stopped under the connect: nothing to tell
				logger.debug("Connect to Redis for rate limiting ended by close", ex);
			}
			else if (!this.failing) {
				this.failing = true;
				this.failingSinceNanos = now;
				this.lastWarningNanos = now;
				logger.warn(
						"Cannot connect to Redis for rate limiting ({}); retrying every {} ms, "
								+ "requests get the storage failure mode meanwhile",
						ex.toString(), this.retryIntervalNanos / 1_000_000);
			}
			else if (now - this.lastWarningNanos >= NEVER_CONNECTED_WARNING_INTERVAL_NANOS && !this.everConnected) {
				// a store that never connected limits only by the failure mode: say so
				// until it does
				this.lastWarningNanos = now;
				logger.warn(
						"Still cannot connect to Redis for rate limiting after {} s ({}); requests get the "
								+ "storage failure mode",
						(now - this.failingSinceNanos) / 1_000_000_000L, ex.toString());
			}
			else {
				logger.debug("Still cannot connect to Redis for rate limiting", ex);
			}
		}
		finally {
			this.lastAttemptNanos = this.nanoTime.getAsLong();
			this.connecting.set(false);
			opened.complete(this.session);
		}
	}

	/**
	 * Opens the connection to every master of a Cluster now, on this background thread:
	 * Lettuce opens one on the first command for a node's slots, and a first decision
	 * that waited for a connect (on a cold application, longer than the timeout) would
	 * get the failure mode. A master that cannot be reached is left to Lettuce.
	 */
	private static void openMasterConnections(StatefulRedisClusterConnection<byte[], byte[]> cluster) {
		for (RedisClusterNode node : cluster.getPartitions()) {
			RedisURI uri = node.getUri();
			if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.is(RedisClusterNode.NodeFlag.FAIL)
					&& uri != null) {
				try {
					// the routing's own connection: writes to a node's slots go to the
					// one kept for its host and port
					cluster.getConnection(uri.getHost(), uri.getPort());
				}
				catch (RuntimeException ex) {
					logger.debug("Cannot connect to Redis Cluster node {} yet", uri, ex);
				}
			}
		}
	}

	private synchronized void install(S fresh) {
		S old = this.session;
		if (this.closed || this.stopped || (old != null && old.isOpen())) {
			// closed or stopped meanwhile, or Lettuce brought the old connection back
			// first
			fresh.close();
			return;
		}
		this.session = fresh;
		this.everConnected = true;
		this.downSinceNanos = 0;
		if (old != null) {
			old.close();
		}
		if (this.failing || old != null) {
			logger.info("Connected to Redis for rate limiting again");
		}
		this.failing = false;
	}

	@Override
	public synchronized void close() {
		this.closed = true;
		this.executor.shutdownNow();
		this.attempt.complete(null);
		closeSession();
	}

	private synchronized void closeSession() {
		S current = this.session;
		this.session = null;
		if (current != null) {
			current.close();
		}
	}

}
