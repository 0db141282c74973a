package io.github.ratelimit.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.masterreplica.MasterReplica;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.tracing.Tracing;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceSslClientConfigurationBuilder;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.ratelimit.storage.redis.connection.RedisConnector;

/**
 * The stores' own Lettuce client, a twin of the application's: the same Redis
 * (standalone, Sentinel, Cluster or socket), credentials, TLS and client options, read
 * from the application's {@link LettuceConnectionFactory}, with three differences that a
 * request path needs:
 * <ul>
 * <li><b>No command tracing.</b> With Actuator, Boot observes every command of its client
 * (a timer, and a span when tracing is on). On the limiter's path that work made bursts
 * miss the 50 ms timeout and fail open; the starter has its own meters
 * ({@code ratelimit.decision.latency}). The twin shares the application's event loops, so
 * it starts no threads.</li>
 * <li><b>Commands fail at once while disconnected</b> instead of queueing until a
 * timeout, and a lost connection is tried again at least every second (Lettuce backs off
 * up to 30 s).</li>
 * <li><b>A Cluster's topology is refreshed</b> on redirects, lost nodes and reconnects
 * (and every {@value #TOPOLOGY_REFRESH_SECONDS} s), so a failover moves decisions to the
 * promoted replica; Lettuce's default never refreshes.</li>
 * </ul>
 * The twin is built on the connecting thread, never at startup, and closed with the
 * application context. Until one connect has succeeded, connects wait for each other: the
 * rate-limit store and the control store make their first ones at the same instant, and
 * Lettuce's first connect of a kind initialises shared state under global locks.
 * <p>
 * A static master/replica setup, which the factory has no getter for, is given by the
 * auto-configuration (from the application's
 * {@code RedisStaticMasterReplicaConfiguration} bean or Boot's connection details, what
 * Boot builds the factory from) and connected through Lettuce's {@code MasterReplica}:
 * decisions go to the master. Replica reads ({@code readFrom}) are never copied: every
 * decision writes.
 */
final class RateLimitRedisClient implements RedisConnector, AutoCloseable {

	private static final int TOPOLOGY_REFRESH_SECONDS = 30;

	/**
	 * A lost connection is tried again at least this often: enforcement resumes soon
	 * after Redis is back.
	 */
	private static final Duration MAX_RECONNECT_DELAY = Duration.ofSeconds(1);

	/**
	 * Adaptive refreshes at most this often: a lost node triggers one on every reconnect
	 * attempt.
	 */
	private static final Duration ADAPTIVE_REFRESH_INTERVAL = Duration.ofMillis(500);

	private final LettuceConnectionFactory application;

	private final @Nullable RedisStaticMasterReplicaConfiguration masterReplica;

	/** Held by a connect until one succeeded. */
	private final ReentrantLock firstConnects = new ReentrantLock();

	private volatile boolean connectedOnce;

	private @Nullable LettuceConnectionFactory twin;

	private @Nullable ClientResources resources;

	/**
	 * Whether the resources are this client's own (the application's client had none to
	 * share).
	 */
	private boolean ownResources;

	private boolean closed;

	/**
	 * A twin of the application's factory.
	 * @param application the application's factory
	 * @param masterReplica the static master/replica nodes the factory connects to, or
	 * {@code null} when it connects as its getters say (standalone, Sentinel, Cluster or
	 * socket)
	 */
	RateLimitRedisClient(LettuceConnectionFactory application,
			@Nullable RedisStaticMasterReplicaConfiguration masterReplica) {
		this.application = application;
		this.masterReplica = masterReplica;
	}

	/**
	 * The static master/replica setup the application's factory was built from, read
	 * where Boot reads it, since the factory has no getter for it: the application's
	 * {@link RedisStaticMasterReplicaConfiguration} bean, else Boot's connection details
	 * ({@code spring.data.redis.masterreplica.nodes}).
	 * @param factory the application's factory
	 * @param bean the application's master/replica configuration bean, if any
	 * @param details the connection details of Boot, if any
	 * @return the setup, or {@code null} for a Cluster, Sentinel or socket factory and
	 * when neither names one (the factory is then read as standalone)
	 */
	static @Nullable RedisStaticMasterReplicaConfiguration staticMasterReplica(LettuceConnectionFactory factory,
			@Nullable RedisStaticMasterReplicaConfiguration bean, @Nullable DataRedisConnectionDetails details) {
		if (factory.isClusterAware() || factory.isRedisSentinelAware() || factory.getSocketConfiguration() != null) {
			return null;
		}
		if (bean != null) {
			return bean;
		}
		DataRedisConnectionDetails.MasterReplica masterReplica = (details != null) ? details.getMasterReplica() : null;
		if (details == null || masterReplica == null || masterReplica.getNodes().isEmpty()) {
			return null;
		}
		// as Boot builds it (DataRedisConnectionConfiguration)
		List<DataRedisConnectionDetails.Node> nodes = masterReplica.getNodes();
		RedisStaticMasterReplicaConfiguration configuration = new RedisStaticMasterReplicaConfiguration(
				nodes.get(0).host(), nodes.get(0).port());
		nodes.stream().skip(1).forEach((node) -> configuration.addNode(node.host(), node.port()));
		configuration.setUsername(details.getUsername());
		String password = details.getPassword();
		if (password != null) {
			configuration.setPassword(RedisPassword.of(password));
		}
		return configuration;
	}

	@Override
	public StatefulConnection<byte[], byte[]> connect() {
		if (this.connectedOnce) {
			return open();
		}
		try {
			// interruptible: a shutdown that interrupts a waiting connect ends it
			this.firstConnects.lockInterruptibly();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RedisConnectionException("Interrupted while waiting for another first connect to Redis", ex);
		}
		try {
			StatefulConnection<byte[], byte[]> connection = open();
			this.connectedOnce = true;
			return connection;
		}
		finally {
			this.firstConnects.unlock();
		}
	}

	private StatefulConnection<byte[], byte[]> open() {
		RedisStaticMasterReplicaConfiguration masterReplica = this.masterReplica;
		if (masterReplica != null) {
			// the twin's client has no URI of its own here: connect to the listed nodes,
			// writes to the master
			return MasterReplica.connect((RedisClient) client(), ByteArrayCodec.INSTANCE,
					nodes(masterReplica, this.application.getClientConfiguration().isUseSsl()));
		}
		return RedisConnector.of(this::client).connect();
	}

	/**
	 * The client connections are opened with: the twin, once the application's factory
	 * can be read.
	 */
	synchronized AbstractRedisClient client() {
		if (this.closed) {
			throw new IllegalStateException("The rate-limit Redis client is closed");
		}
		if (this.twin == null) {
			LettuceConnectionFactory twin = twin(this.application);
			twin.afterPropertiesSet();
			twin.start();
			this.twin = twin;
		}
		return this.twin.getRequiredNativeClient();
	}

	@Override
	public synchronized void close() {
		this.closed = true;
		if (this.twin != null) {
			this.twin.destroy();
			this.twin = null;
		}
		if (this.ownResources && this.resources != null) {
			this.resources.shutdown();
		}
	}

	private LettuceConnectionFactory twin(LettuceConnectionFactory application) {
		LettuceClientConfiguration client = twinConfiguration(application);
		if (application.isClusterAware()) {
			return new LettuceConnectionFactory(application.getClusterConfiguration(), client);
		}
		if (application.isRedisSentinelAware()) {
			return new LettuceConnectionFactory(application.getSentinelConfiguration(), client);
		}
		if (application.getSocketConfiguration() != null) {
			return new LettuceConnectionFactory(application.getSocketConfiguration(), client);
		}
		return new LettuceConnectionFactory(application.getStandaloneConfiguration(), client);
	}

	private LettuceClientConfiguration twinConfiguration(LettuceConnectionFactory application) {
		LettuceClientConfiguration configuration = application.getClientConfiguration();
		LettuceClientConfigurationBuilder builder = LettuceClientConfiguration.builder();
		if (configuration.isUseSsl()) {
			LettuceSslClientConfigurationBuilder ssl = builder.useSsl().verifyPeer(configuration.getVerifyMode());
			if (configuration.isStartTls()) {
				ssl.startTls();
			}
		}
		configuration.getClientName().ifPresent(builder::clientName);
		configuration.getRedisCredentialsProviderFactory().ifPresent(builder::redisCredentialsProviderFactory);
		builder.clientResources(resources(configuration));
		ClientOptions options = configuration.getClientOptions().orElseGet(ClientOptions::create);
		builder.clientOptions(application.isClusterAware() ? clusterOptions(options) : requestPathOptions(options));
		return builder.commandTimeout(configuration.getCommandTimeout())
			.shutdownTimeout(configuration.getShutdownTimeout())
			.shutdownQuietPeriod(configuration.getShutdownQuietPeriod())
			.build();
	}

	/**
	 * The application's resources (event loops, timer, DNS: nothing new to start) without
	 * its tracing, and a reconnect delay capped at {@link #MAX_RECONNECT_DELAY} instead
	 * of Lettuce's 30 s.
	 */
	private ClientResources resources(LettuceClientConfiguration configuration) {
		ClientResources.Builder builder;
		if (configuration.getClientResources().isPresent()) {
			ClientResources application = configuration.getClientResources().get();
			// mutate() shares the timer and executors but not the I/O event loops: share
			// those too
			// (never shut down here: every part of these resources is the application's)
			builder = application.mutate().eventLoopGroupProvider(application.eventLoopGroupProvider());
		}
		else {
			builder = ClientResources.builder();
			this.ownResources = true;
		}
		ClientResources resources = builder.tracing(Tracing.disabled())
			.reconnectDelay(Delay.exponential(Duration.ZERO, MAX_RECONNECT_DELAY, 2, TimeUnit.MILLISECONDS))
			.build();
		this.resources = resources;
		return resources;
	}

	private static ClientOptions requestPathOptions(ClientOptions options) {
		return options.mutate().disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS).build();
	}

	private static ClusterClientOptions clusterOptions(ClientOptions options) {
		ClusterClientOptions.Builder builder = (options instanceof ClusterClientOptions cluster) ? cluster.mutate()
				: ClusterClientOptions.builder(options);
		return builder.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
			.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
				.enableAllAdaptiveRefreshTriggers()
				.adaptiveRefreshTriggersTimeout(ADAPTIVE_REFRESH_INTERVAL)
				.refreshTriggersReconnectAttempts(1)
				.enablePeriodicRefresh(Duration.ofSeconds(TOPOLOGY_REFRESH_SECONDS))
				.build())
			.build();
	}

	private static List<RedisURI> nodes(RedisStaticMasterReplicaConfiguration configuration, boolean ssl) {
		List<RedisURI> nodes = new ArrayList<>();
		for (RedisStandaloneConfiguration node : configuration.getNodes()) {
			RedisURI.Builder uri = RedisURI.builder()
				.withHost(node.getHostName())
				.withPort(node.getPort())
				.withDatabase(configuration.getDatabase())
				.withSsl(ssl);
			configuration.getPassword().map(String::new).ifPresent((password) -> {
				String username = configuration.getUsername();
				uri.withAuthentication((username != null) ? username : "default", password);
			});
			nodes.add(uri.build());
		}
		return nodes;
	}

}
